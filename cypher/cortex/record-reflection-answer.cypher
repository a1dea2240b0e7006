// Records the mind's answer to one reflect candidate: a ReflectionAnswered
// event (what it decided and why) that ANSWERS the reflection and is ABOUT the
// candidate and every other memory the answer involved (those still there: a
// forgotten memory's answer keeps its id in memoryId). The id is one per
// reflection and memory, so a replay (or a second answer) changes nothing.
// params: $eventId, $reflectionId, $memoryId, $memoryIds, $now, $payload, $commandId, $correlationId, $sessionId
// returns: answer
MATCH (r:Reflection {id: $reflectionId})
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'ReflectionAnswered',
    e.store = r.store,
    e.at = datetime({epochMillis: $now}),
    e.memoryId = $memoryId,
    e.sessionId = $sessionId,
    e.causationId = $commandId,
    e.correlationId = $correlationId,
    e.payload = $payload,
    e.changedAt = timestamp()
MERGE (e)-[:ANSWERS]->(r)
WITH e
CALL {
  WITH e
  UNWIND $memoryIds AS id
  MATCH (m:Memory {id: id})
  MERGE (e)-[:ABOUT]->(m)
}
RETURN e {.*} AS answer
