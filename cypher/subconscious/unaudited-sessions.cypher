// Sessions that ended in a time window but have no SESSION_AUDIT notification
// yet (the process died between ending and queueing the audit). Read-only.
// params: $since, $until, $stores, $limit
// returns: id, instanceId
MATCH (s:Session)
WHERE s.endedAt >= datetime({epochMillis: $since}) AND s.endedAt < datetime({epochMillis: $until})
  AND ($stores IS NULL OR s.store IN $stores)
  AND NOT EXISTS { (:Notification {kind: 'SESSION_AUDIT'})-[:ABOUT]->(s) }
RETURN s.id AS id, s.instanceId AS instanceId
LIMIT $limit
