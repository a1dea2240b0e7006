// A store's sessions, newest first, optionally of one instance only; each with decisionsMade, counted here
// so a list costs no read per session.
// params: $store, $instanceId, $limit
// returns: session
MATCH (s:Session)
WHERE s.store = $store AND ($instanceId IS NULL OR s.instanceId = $instanceId)
RETURN s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session
ORDER BY s.startedAt DESC, s.id DESC
LIMIT $limit
