// Any call from an instance counts as activity on its open session (idle
// sessions time out); returns the session's id so what it stores is linked to it.
// params: $instanceId, $now
// returns: sessionId
MATCH (s:Session {openInstance: $instanceId})
SET s.lastActiveAt = CASE
  WHEN s.lastActiveAt < datetime({epochMillis: $now}) THEN datetime({epochMillis: $now})
  ELSE s.lastActiveAt END
RETURN s.id AS sessionId
