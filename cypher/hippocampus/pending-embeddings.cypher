// One page of memories without an embedding (PENDING, FAILED, or stored before
// embeddings existed), in id order after $after: the backfill walks the id index.
// $stores limits it to some stores (null: every store).
// params: $after, $limit, $stores
// returns: id, content
MATCH (m:Memory)
WHERE m.id > $after AND m.embedding IS NULL AND ($stores IS NULL OR m.store IN $stores)
RETURN m.id AS id, m.content AS content
ORDER BY m.id
LIMIT $limit
