// Reads one session by id.
// params: $id
// returns: session
MATCH (s:Session {id: $id})
RETURN s {.*} AS session
