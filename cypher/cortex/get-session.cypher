// Reads one session by id, with decisionsMade (how many decisions it holds; a list of them is bounded).
// params: $id
// returns: session
MATCH (s:Session {id: $id})
RETURN s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session
