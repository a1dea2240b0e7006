// Opens a session for an instance, with its SessionStarted event. MERGE on the
// id makes a retried start a no-op (created = false). `openInstance` is set
// while the session is open; its unique constraint keeps one open session per
// instance even across processes.
// params: $session, $now, $eventId, $payload, $commandId, $correlationId
// returns: session, created
MERGE (s:Session {id: $session.id})
  ON CREATE SET
    s.store = $session.store,
    s.instanceId = $session.instanceId,
    s.openInstance = $session.instanceId,
    s.mindType = $session.mindType,
    s.mode = $session.mode,
    s.modeSince = datetime({epochMillis: $now}),
    s.task = $session.task,
    s.project = $session.project,
    s.startedAt = datetime({epochMillis: $now}),
    s.lastActiveAt = datetime({epochMillis: $now}),
    s.startedBy = $commandId,
    s.changedAt = timestamp()
WITH s, s.startedBy = $commandId AS created
FOREACH (_ IN CASE WHEN created THEN [1] ELSE [] END |
  MERGE (e:Event {id: $eventId})
    ON CREATE SET
      e.type = 'SessionStarted',
      e.store = s.store,
      e.at = datetime({epochMillis: $now}),
      e.sessionId = s.id,
      e.causationId = $commandId,
      e.correlationId = $correlationId,
      e.payload = $payload,
      e.changedAt = timestamp()
  MERGE (e)-[:ABOUT]->(s)
)
RETURN s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session, created
