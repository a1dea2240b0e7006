// How many memories the database holds in all stores: the size of the full-text index a search reads
// (from Neo4j's count store, without reading any memory). Recall weighs a store's share of it.
// params: none
// returns: count
MATCH (m:Memory)
RETURN count(m) AS count
