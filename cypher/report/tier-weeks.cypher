// A store's memories by the week they were stored and the tier they are in now
// (for the report's counts by tier over time). Read-only.
// params: $store
// returns: week, tier, memories
MATCH (m:Memory {store: $store})
RETURN toString(date.truncate('week', m.createdAt)) AS week, m.tier AS tier, count(*) AS memories
ORDER BY week, tier
