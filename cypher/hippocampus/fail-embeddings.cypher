// Marks memories whose embedding job gave up (the backfill tries them again).
// params: $ids, $reason, $now
// returns: id
MATCH (m:Memory)
WHERE m.id IN $ids AND m.embedding IS NULL
SET m.embeddingStatus = 'FAILED',
    m.embeddingError = $reason,
    m.embeddedAt = datetime({epochMillis: $now}),
    m.changedAt = timestamp()
RETURN m.id AS id
