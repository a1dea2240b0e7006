// The open session of an instance, if any (served by the openInstance constraint).
// params: $instanceId
// returns: session
MATCH (s:Session {openInstance: $instanceId})
RETURN s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session
