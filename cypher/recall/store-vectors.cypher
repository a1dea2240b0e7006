// A page of one store's embeddings in id order: what Recall's in-process copy
// of a small store's vectors is loaded from.
// params: $store, $after, $limit
// returns: id, embedding, embeddedAt
MATCH (m:Memory)
WHERE m.store = $store AND m.id > $after
WITH m ORDER BY m.id LIMIT $limit
RETURN m.id AS id, m.embedding AS embedding, m.embeddedAt.epochMillis AS embeddedAt
