// A session's audit: how many memories it stored and the ids of those that
// will fade unless claimed (unclaimed, not IDENTITY_CORE), oldest first. Read-only.
// params: $sessionId, $limit
// returns: store, instanceId, stored, unclaimed
MATCH (s:Session {id: $sessionId})
OPTIONAL MATCH (m:Memory)-[:STORED_IN]->(s)
WITH s, m ORDER BY m.createdAt, m.id
WITH s, count(m) AS stored, collect(CASE WHEN m.claimed = false AND m.tier <> 'IDENTITY_CORE' THEN m.id END) AS fading
RETURN s.store AS store, s.instanceId AS instanceId, stored, fading[0..$limit] AS unclaimed
