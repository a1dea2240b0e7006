// Memories still PENDING an embedding that were stored before $before, oldest
// first, then those whose embedding FAILED before $failedBefore, longest failed
// first (the reconciliation re-queues them; the embedding job skips any that
// got a vector meanwhile). $stores limits it to some stores (null: every store).
// params: $before, $failedBefore, $limit, $stores
// returns: id
CALL {
  MATCH (m:Memory)
  WHERE m.embeddingStatus = 'PENDING' AND m.createdAt < datetime({epochMillis: $before})
    AND ($stores IS NULL OR m.store IN $stores)
  RETURN m, 0 AS rank, m.createdAt AS at
  ORDER BY at
  LIMIT $limit
  UNION ALL
  MATCH (m:Memory)
  WHERE m.embeddingStatus = 'FAILED' AND m.embeddedAt < datetime({epochMillis: $failedBefore})
    AND ($stores IS NULL OR m.store IN $stores)
  RETURN m, 1 AS rank, m.embeddedAt AS at
  ORDER BY at
  LIMIT $limit
}
RETURN m.id AS id
ORDER BY rank, at
LIMIT $limit
