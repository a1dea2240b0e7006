// Attaches computed vectors of $model to memories that have none or one of an
// earlier model (idempotent: a replay, a second job or a client vector stored
// meanwhile leaves it as it is).
// A memory forgotten meanwhile is simply not matched; nor is one whose context
// (v.contextId: the memory before it in its session when its text was read,
// or null) is no longer the memory before it — its context was forgotten, and
// the forget asked for it to be embedded again.
// params: $vectors, $model, $now
// returns: id, store
UNWIND $vectors AS v
MATCH (m:Memory {id: v.id})
WHERE (m.embedding IS NULL OR (m.embeddingModel IS NOT NULL AND m.embeddingModel <> $model AND m.embeddingModel <> 'client'))
  AND coalesce(COLLECT {
    MATCH (p:Memory)
    WHERE m.sessionId IS NOT NULL AND p.sessionId = m.sessionId AND p.occurredAt < m.occurredAt AND p.store = m.store
    RETURN p.id ORDER BY p.occurredAt DESC, p.id DESC LIMIT 1
  }[0], '') = coalesce(v.contextId, '')
SET m.embedding = v.embedding,
    m.embeddingStatus = 'DONE',
    m.embeddingModel = $model,
    m.embeddedAt = datetime({epochMillis: $now})
REMOVE m.embeddingError
RETURN m.id AS id, m.store AS store
