// Ends an instance's open session with its cause and records SessionEnded.
// With a guard (a timer's TIMEOUT) only that session, and only while it has had
// no activity since $idleBefore. Returns nothing when no session matched (the
// caller then checks whether a replay of this very transaction ended it).
// params: $instanceId, $guardSessionId, $idleBefore, $cause, $reason, $now, $eventId, $payload, $commandId,
//   $correlationId
// returns: session
MATCH (s:Session {openInstance: $instanceId})
WHERE ($guardSessionId IS NULL OR s.id = $guardSessionId)
  AND ($idleBefore IS NULL OR s.lastActiveAt < datetime({epochMillis: $idleBefore}))
SET s.endedAt = datetime({epochMillis: $now}),
    s.endCause = $cause,
    s.endReason = $reason,
    s.changedAt = timestamp()
REMOVE s.openInstance
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'SessionEnded',
    e.store = s.store,
    e.at = datetime({epochMillis: $now}),
    e.sessionId = s.id,
    e.causationId = $commandId,
    e.correlationId = $correlationId,
    e.payload = $payload,
    e.changedAt = timestamp()
MERGE (e)-[:ABOUT]->(s)
RETURN s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session
