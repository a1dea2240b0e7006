// Attaches computed vectors to memories that still have none (idempotent: a
// replay, a second job or a client vector stored meanwhile leaves it as it is).
// A memory forgotten meanwhile is simply not matched.
// params: $vectors, $model, $now
// returns: id
UNWIND $vectors AS v
MATCH (m:Memory {id: v.id})
WHERE m.embedding IS NULL
SET m.embedding = v.embedding,
    m.embeddingStatus = 'DONE',
    m.embeddingModel = $model,
    m.embeddedAt = datetime({epochMillis: $now})
REMOVE m.embeddingError
RETURN m.id AS id
