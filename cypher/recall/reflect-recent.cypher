// Memories stored since a moment, the newest first.
// params: $store, $since, $limit
// returns: memory, associations
MATCH (m:Memory)
WHERE m.store = $store AND m.createdAt >= datetime({epochMillis: $since})
WITH m ORDER BY m.createdAt DESC, m.id LIMIT $limit
RETURN m {.*, embedding: null} AS memory, COUNT { (m)-[:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-() } AS associations
