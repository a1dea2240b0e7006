// A session's newest decisions, at most $limit (the caller puts them in the order made).
// params: $sessionId, $limit
// returns: decision
MATCH (d:Decision)-[:DECIDED_IN]->(:Session {id: $sessionId})
RETURN d {.*} AS decision
ORDER BY d.at DESC, d.id DESC
LIMIT $limit
