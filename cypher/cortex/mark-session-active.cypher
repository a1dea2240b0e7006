// A call from an instance is activity on its open session (an idle one times
// out), marked at most once per $everyMs (0: now, a change; a recall passes a
// minute or so, as a commit on every search would cost each one a write).
// Never moves the time back.
// params: $instanceId, $now, $everyMs
// returns: none
MATCH (s:Session {openInstance: $instanceId})
WHERE s.lastActiveAt < datetime({epochMillis: $now - $everyMs})
SET s.lastActiveAt = datetime({epochMillis: $now}),
  s.changedAt = timestamp()
