// The mind's state transition on its open session: mode (and the time it was
// entered, when it changes), task and state, with the StateTransitioned event.
// Guarded by the mode read in the same transaction; the changes are applied
// once per event id (ON CREATE), so a replay cannot apply them twice.
// params: $instanceId, $from, $mode, $task, $keepTask, $state, $now, $eventId, $payload, $commandId, $correlationId
// returns: session
MATCH (s:Session {openInstance: $instanceId})
WHERE s.mode = $from
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'StateTransitioned',
    e.store = s.store,
    e.at = datetime({epochMillis: $now}),
    e.sessionId = s.id,
    e.causationId = $commandId,
    e.correlationId = $correlationId,
    e.payload = $payload,
    s.modeSince = CASE WHEN $from <> $mode THEN datetime({epochMillis: $now}) ELSE s.modeSince END,
    s.mode = $mode,
    s.task = CASE WHEN $keepTask THEN s.task ELSE $task END,
    s.state = coalesce($state, s.state),
    s.lastActiveAt = datetime({epochMillis: $now}),
    s.changedAt = timestamp(),
    e.changedAt = timestamp()
MERGE (e)-[:ABOUT]->(s)
RETURN s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session
