// Attaches computed vectors of $model to memories that have none or one of an
// earlier model (idempotent: a replay, a second job or a client vector stored
// meanwhile leaves it as it is).
// A memory forgotten meanwhile is simply not matched.
// params: $vectors, $model, $now
// returns: id, store
UNWIND $vectors AS v
MATCH (m:Memory {id: v.id})
WHERE (m.embedding IS NULL OR (m.embeddingModel IS NOT NULL AND m.embeddingModel <> $model AND m.embeddingModel <> 'client'))
SET m.embedding = v.embedding,
    m.embeddingStatus = 'DONE',
    m.embeddingModel = $model,
    m.embeddedAt = datetime({epochMillis: $now})
REMOVE m.embeddingError
RETURN m.id AS id, m.store AS store
