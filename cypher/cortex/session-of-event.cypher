// The session a lifecycle event is about (recognises a replayed transaction).
// params: $eventId
// returns: session
MATCH (:Event {id: $eventId})-[:ABOUT]->(s:Session)
RETURN s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session
