// How many memories a session stored, and the ids of those that will fade
// unless claimed (unclaimed and not IDENTITY_CORE), oldest first. Read-only.
// params: $sessionId, $limit
// returns: stored, unclaimed
MATCH (s:Session {id: $sessionId})
OPTIONAL MATCH (m:Memory)-[:STORED_IN]->(s)
WITH m ORDER BY m.createdAt, m.id
WITH count(m) AS stored, collect(CASE WHEN m.claimed = false AND m.tier <> 'IDENTITY_CORE' THEN m.id END) AS fading
RETURN stored, fading[0..$limit] AS unclaimed
