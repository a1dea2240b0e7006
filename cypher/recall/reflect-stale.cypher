// Memories once salient (accessed or claimed) that nobody has touched for a
// while, the longest untouched first.
// params: $store, $before, $limit
// returns: memory, associations
MATCH (m:Memory)
WHERE m.store = $store
  AND m.tier <> 'IDENTITY_CORE'
  AND (m.accessCount > 0 OR m.claimed)
  AND coalesce(m.lastAccessedAt, m.createdAt) < datetime({epochMillis: $before})
WITH m ORDER BY coalesce(m.lastAccessedAt, m.createdAt), m.id LIMIT $limit
RETURN m {.*, embedding: null} AS memory, COUNT { (m)-[:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-() } AS associations
