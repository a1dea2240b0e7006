// A session by id with the arguments it was started with (its SessionStarted payload): a retried startSession
// must repeat them, and its task may have changed since.
// params: $id
// returns: session, started
MATCH (s:Session {id: $id})
OPTIONAL MATCH (e:Event {type: 'SessionStarted'})-[:ABOUT]->(s)
RETURN s {.*, decisionsMade: COUNT { (:Decision)-[:DECIDED_IN]->(s) }} AS session, e.payload AS started
LIMIT 1
