// What faded: Salience's moves into the archive or out of the active context
// since $since, newest first, with the start of each memory's content. Read-only.
// `e.id IS NOT NULL` lets the planner seek the events' (store, id) index (a
// composite index answers only when every one of its properties is asked for):
// without it, it scanned every store's events (0.6 s against 10 ms for a small
// store beside 1.2M events of another).
// params: $store, $since, $limit
// returns: at, id, content, payload
MATCH (e:Event)-[:ABOUT]->(m:Memory)
WHERE e.store = $store AND e.id IS NOT NULL AND e.type = 'TierChanged'
  AND e.at >= datetime({epochMillis: $since})
  AND e.payload CONTAINS '"by":"SALIENCE"'
  AND (e.payload CONTAINS '"to":"ARCHIVE"' OR e.payload STARTS WITH '{"from":"ACTIVE_CONTEXT","to":"LONG_TERM"')
RETURN e.at.epochMillis AS at, m.id AS id, left(m.content, 120) AS content, e.payload AS payload
ORDER BY at DESC LIMIT $limit
