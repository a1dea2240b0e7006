// The embeddings of the named memories of one store, with when each was
// attached: what Recall's in-process copy reads when a catch-up finds them new.
// params: $store, $ids
// returns: id, embedding, embeddedAt
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.store = $store
RETURN m.id AS id, m.embedding AS embedding, m.embeddedAt.epochMillis AS embeddedAt
