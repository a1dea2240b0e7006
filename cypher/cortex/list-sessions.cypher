// A store's sessions, newest first, optionally of one instance only.
// params: $store, $instanceId, $limit
// returns: session
MATCH (s:Session)
WHERE s.store = $store AND ($instanceId IS NULL OR s.instanceId = $instanceId)
RETURN s {.*} AS session
ORDER BY s.startedAt DESC, s.id DESC
LIMIT $limit
