// Any call from an instance counts as activity on its open session (idle
// sessions time out); returns the session's id and store so what it stores is linked to it.
// params: $instanceId, $now
// returns: sessionId, store
MATCH (s:Session {openInstance: $instanceId})
SET s.lastActiveAt = CASE
  WHEN s.lastActiveAt < datetime({epochMillis: $now}) THEN datetime({epochMillis: $now})
  ELSE s.lastActiveAt END,
  s.changedAt = timestamp()
RETURN s.id AS sessionId, s.store AS store
