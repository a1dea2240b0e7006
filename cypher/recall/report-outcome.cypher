// Records how a use went (the latest report counts) with an OutcomeReported event.
// params: $id, $outcome, $note, $now, $eventId, $payload, $correlationId, $sessionId
// returns: use
MATCH (u:Use {id: $id})
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'OutcomeReported',
    e.store = u.store,
    e.at = datetime({epochMillis: $now}),
    e.sessionId = $sessionId,
    e.causationId = $id,
    e.correlationId = $correlationId,
    e.payload = $payload,
    u.outcome = $outcome,
    u.note = $note,
    u.reportedAt = datetime({epochMillis: $now}),
    u.changedAt = timestamp(),
    e.changedAt = timestamp()
MERGE (e)-[:RECORDS]->(u)
RETURN u {.*} AS use
