// How many memories the database holds across all stores (from the count
// store, no scan): how far the vector index's nearest neighbours must reach
// to leave enough of one store after filtering.
// params: none
// returns: n
MATCH (m:Memory) RETURN count(m) AS n
