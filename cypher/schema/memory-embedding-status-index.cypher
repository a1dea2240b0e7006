// Memories still waiting for their embedding (PENDING), oldest first: the
// reconciliation re-queues those whose job was lost (a killed process, Redis's
// last second of AOF) without walking the store.
// params: none
// returns: none
CREATE INDEX memory_embedding_status IF NOT EXISTS FOR (m:Memory) ON (m.embeddingStatus, m.createdAt)
