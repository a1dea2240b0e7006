// Opens a reflection: the Reflection node with the candidates as offered (JSON:
// reason and actions per memory), a REVIEWS link to each candidate memory and
// the ReflectionStarted event. MERGE on the id makes a replay a no-op.
// params: $id, $store, $instanceId, $sessionId, $candidates, $memoryIds, $now, $eventId, $payload, $correlationId
// returns: reflection
MERGE (r:Reflection {id: $id})
  ON CREATE SET
    r.store = $store,
    r.instanceId = $instanceId,
    r.sessionId = $sessionId,
    r.candidates = $candidates,
    r.memoryIds = $memoryIds,
    r.startedAt = datetime({epochMillis: $now}),
    r.changedAt = timestamp()
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'ReflectionStarted',
    e.store = $store,
    e.at = datetime({epochMillis: $now}),
    e.sessionId = $sessionId,
    e.causationId = $id,
    e.correlationId = $correlationId,
    e.payload = $payload,
    e.changedAt = timestamp()
MERGE (e)-[:ABOUT]->(r)
WITH r
CALL {
  WITH r
  UNWIND $memoryIds AS memoryId
  MATCH (m:Memory {id: memoryId})
  MERGE (r)-[:REVIEWS]->(m)
}
RETURN r {.*} AS reflection
