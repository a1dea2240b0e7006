// A recall from an instance is activity on its open session, marked at most
// once per $everyMs: sessions time out after an hour idle, and a commit on
// every search would cost each one a write.
// params: $instanceId, $now, $everyMs
// returns: none
MATCH (s:Session {openInstance: $instanceId})
WHERE s.lastActiveAt < datetime({epochMillis: $now - $everyMs})
SET s.lastActiveAt = datetime({epochMillis: $now}),
  s.changedAt = timestamp()
