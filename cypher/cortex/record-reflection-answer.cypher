// Records the mind's answer to one reflect candidate: a ReflectionAnswered
// event (what it decided and why) that ANSWERS the reflection and is ABOUT the
// candidate and every other memory the answer involved (those still there: a
// forgotten memory's answer keeps its id in memoryId).
// One answer per reflection and memory: the SET locks the reflection until
// commit, so a concurrent answer to it waits and then finds the answer already
// recorded (returned as it is, nothing written); a replay of the transaction
// finds its own event by $eventId. The event id is time-sortable like every
// other event's (the events cursor pages by id).
// params: $eventId, $reflectionId, $memoryId, $memoryIds, $now, $payload, $commandId, $correlationId, $sessionId
// returns: answer
MATCH (r:Reflection {id: $reflectionId})
SET r.changedAt = timestamp()
WITH r
OPTIONAL MATCH (earlier:Event)-[:ANSWERS]->(r)
  WHERE earlier.memoryId = $memoryId
WITH r, earlier ORDER BY earlier.at, earlier.id
WITH r, head(collect(earlier.id)) AS earlierId
MERGE (e:Event {id: coalesce(earlierId, $eventId)})
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
  // An answer recorded earlier keeps the memories it named.
  UNWIND CASE WHEN e.id = $eventId THEN $memoryIds ELSE [] END AS id
  MATCH (m:Memory {id: id})
  MERGE (e)-[:ABOUT]->(m)
}
RETURN e {.*} AS answer
