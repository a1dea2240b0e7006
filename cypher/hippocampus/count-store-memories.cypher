// How many memories these stores hold (health, for a caller bound to some stores).
// params: $stores
// returns: count
UNWIND $stores AS store
MATCH (m:Memory {store: store})
RETURN count(m) AS count
