// A store's memories by tier and salience as last scored, in bins of 0.05. Read-only.
// params: $store
// returns: tier, bin, memories
MATCH (m:Memory {store: $store})
RETURN m.tier AS tier, toFloat(toInteger(coalesce(m.salience, 0.0) * 20)) / 20.0 AS bin, count(*) AS memories
ORDER BY tier, bin
