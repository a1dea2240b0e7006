// What faded: Salience's moves into the archive or out of the active context
// since $since, newest first, with the start of each memory's content. Read-only.
// params: $store, $since, $limit
// returns: at, id, content, payload
MATCH (e:Event {store: $store, type: 'TierChanged'})-[:ABOUT]->(m:Memory)
WHERE e.at >= datetime({epochMillis: $since})
  AND e.payload CONTAINS '"by":"SALIENCE"'
  AND (e.payload CONTAINS '"to":"ARCHIVE"' OR e.payload STARTS WITH '{"from":"ACTIVE_CONTEXT","to":"LONG_TERM"')
RETURN e.at.epochMillis AS at, m.id AS id, left(m.content, 120) AS content, e.payload AS payload
ORDER BY at DESC LIMIT $limit
