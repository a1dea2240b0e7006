// How many memories of a store have each number of associations. Read-only.
// params: $store
// returns: degree, memories
MATCH (m:Memory {store: $store})
WITH COUNT { (m)-[:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-() } AS degree
RETURN degree, count(*) AS memories
ORDER BY degree
