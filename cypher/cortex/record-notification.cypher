// Keeps a notification for its instance, about its session. MERGE on the
// deterministic id records a retried job's notification once; `cursor` (set
// once, on arrival) orders the polling feed.
// params: $notification, $cursor, $now
// returns: notification, created
MERGE (n:Notification {id: $notification.id})
  ON CREATE SET
    n.kind = $notification.kind,
    n.store = $notification.store,
    n.instanceId = $notification.instanceId,
    n.sessionId = $notification.sessionId,
    n.message = $notification.message,
    n.payload = $notification.payload,
    n.at = datetime({epochMillis: $now}),
    n.cursor = $cursor,
    n.changedAt = timestamp()
WITH n, n.cursor = $cursor AS created
OPTIONAL MATCH (s:Session {id: n.sessionId})
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | MERGE (n)-[:ABOUT]->(s) SET n.changedAt = timestamp())
RETURN n {.*} AS notification, created
