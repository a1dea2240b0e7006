// How many memories there are in all (served from Neo4j's count store).
// params: none
// returns: count
MATCH (m:Memory)
RETURN count(m) AS count
