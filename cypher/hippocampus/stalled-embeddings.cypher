// Memories still PENDING an embedding that were stored before $before, oldest
// first (the reconciliation re-queues them; the embedding job skips any that
// got a vector meanwhile). $stores limits it to some stores (null: every store).
// params: $before, $limit, $stores
// returns: id
MATCH (m:Memory)
WHERE m.embeddingStatus = 'PENDING' AND m.createdAt < datetime({epochMillis: $before})
  AND ($stores IS NULL OR m.store IN $stores)
RETURN m.id AS id
ORDER BY m.createdAt
LIMIT $limit
