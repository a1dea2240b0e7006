// The embeddings of one store attached at or after $since (index
// memory_store_embedded), oldest first: how Recall's in-process copy catches up.
// params: $store, $since, $limit
// returns: id, embedding, embeddedAt
MATCH (m:Memory)
WHERE m.store = $store AND m.embeddedAt >= datetime({epochMillis: $since})
WITH m ORDER BY m.embeddedAt LIMIT $limit
RETURN m.id AS id, m.embedding AS embedding, m.embeddedAt.epochMillis AS embeddedAt
