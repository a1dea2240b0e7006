// Memories with few or weak associations (fewer than $minLinks, or none
// stronger than $minStrength), the least connected first.
// params: $store, $since, $minLinks, $minStrength, $limit
// returns: memory, associations, strongest
MATCH (m:Memory)
WHERE m.store = $store AND m.createdAt >= datetime({epochMillis: $since})
CALL {
  WITH m
  OPTIONAL MATCH (m)-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-()
  RETURN count(r) AS associations, coalesce(max(r.strength), 0.0) AS strongest
}
WITH m, associations, strongest
WHERE associations < $minLinks OR strongest < $minStrength
WITH m, associations, strongest ORDER BY associations, strongest, m.createdAt DESC, m.id LIMIT $limit
RETURN m {.*, embedding: null} AS memory, associations, strongest
