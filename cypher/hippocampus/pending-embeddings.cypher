// One page of memories without an embedding of $model (PENDING, FAILED, stored
// before embeddings existed, or embedded by an earlier model; never a client's
// own vector), in id order after $after: the backfill walks the id index and
// takes each page's texts with memories-to-embed.
// $stores limits it to some stores (null: every store).
// params: $after, $limit, $stores, $model
// returns: id
MATCH (m:Memory)
WHERE m.id > $after AND (m.embedding IS NULL
  OR (m.embeddingModel IS NOT NULL AND m.embeddingModel <> $model AND m.embeddingModel <> 'client'))
  AND ($stores IS NULL OR m.store IN $stores)
RETURN m.id AS id
ORDER BY m.id
LIMIT $limit
