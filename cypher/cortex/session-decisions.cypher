// A session's decisions in the order they were made.
// params: $sessionId
// returns: decision
MATCH (d:Decision)-[:DECIDED_IN]->(:Session {id: $sessionId})
RETURN d {.*} AS decision
ORDER BY d.at, d.id
