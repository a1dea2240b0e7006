// Records that a mind used memories offered by a recall, with the MemoryUsed event.
// params: $id, $recallId, $memoryIds, $action, $now, $eventId, $payload, $correlationId, $sessionId
// returns: use
MATCH (r:Recall {id: $recallId})
MERGE (u:Use {id: $id})
  ON CREATE SET
    u.store = r.store,
    u.recallId = r.id,
    u.memoryIds = $memoryIds,
    u.action = $action,
    u.at = datetime({epochMillis: $now}),
    u.changedAt = timestamp()
MERGE (u)-[:FROM]->(r)
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'MemoryUsed',
    e.store = r.store,
    e.at = datetime({epochMillis: $now}),
    e.sessionId = $sessionId,
    e.causationId = $recallId,
    e.correlationId = $correlationId,
    e.payload = $payload,
    e.changedAt = timestamp()
MERGE (e)-[:RECORDS]->(u)
WITH u, e
CALL {
  WITH u, e
  UNWIND $memoryIds AS memoryId
  MATCH (m:Memory {id: memoryId})
  MERGE (u)-[:USED]->(m)
  MERGE (e)-[:ABOUT]->(m)
}
RETURN u {.*} AS use
