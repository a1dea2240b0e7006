// Logs a decision on an instance's open session (DECIDED_IN) with its
// DecisionLogged event; MERGE on the decision id makes a replay a no-op.
// params: $instanceId, $decision, $now, $eventId, $commandId, $correlationId
// returns: decision, session
MATCH (s:Session {openInstance: $instanceId})
MERGE (d:Decision {id: $decision.id})
  ON CREATE SET
    d.store = s.store,
    d.sessionId = s.id,
    d.instanceId = s.instanceId,
    d.text = $decision.text,
    d.rationale = $decision.rationale,
    d.at = datetime({epochMillis: $now}),
    s.lastActiveAt = datetime({epochMillis: $now}),
    s.changedAt = timestamp(),
    d.changedAt = timestamp()
MERGE (d)-[:DECIDED_IN]->(s)
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'DecisionLogged',
    e.store = s.store,
    e.at = datetime({epochMillis: $now}),
    e.sessionId = s.id,
    e.causationId = $commandId,
    e.correlationId = $correlationId,
    e.payload = '{"decisionId":"' + d.id + '"}',
    e.changedAt = timestamp()
MERGE (e)-[:ABOUT]->(s)
RETURN d {.*} AS decision, s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session
