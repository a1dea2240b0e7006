// Marks memories whose embedding job gave up (the backfill tries them again).
// The memory is write-locked before its vector is looked at (as in
// attach-embeddings.cypher): a vector another job attaches meanwhile is seen,
// and the memory is not marked FAILED beside it.
// params: $ids, $reason, $now
// returns: id
MATCH (m:Memory)
WHERE m.id IN $ids
SET m.embeddingLock = true
REMOVE m.embeddingLock
WITH m
WHERE m.embedding IS NULL
SET m.embeddingStatus = 'FAILED',
    m.embeddingError = $reason,
    m.embeddedAt = datetime({epochMillis: $now})
RETURN m.id AS id
