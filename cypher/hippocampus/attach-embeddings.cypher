// Attaches computed vectors of $model to memories that have none or one of an
// earlier model (idempotent: a replay, a second job or a client vector stored
// meanwhile leaves it as it is).
// A memory forgotten meanwhile is simply not matched; nor is one whose context
// (v.contextId: the memory whose content its text took in, or null) was
// forgotten meanwhile — that forget asked for it to be embedded again. The
// context's id stays on the memory (embeddingContextId), so forgetting the
// context later finds the vectors made with it.
// Two jobs can hold vectors for one memory at once (a retry beside its first
// run): the memory is write-locked before its vector is looked at, so the
// second waits for the first's commit and then sees that vector. Without the
// lock both would see none, both attach, and both announce it.
// params: $vectors, $model, $now
// returns: id, store
UNWIND $vectors AS v
MATCH (m:Memory {id: v.id})
SET m.embeddingLock = true
REMOVE m.embeddingLock
WITH m, v
WHERE (m.embedding IS NULL
  OR (m.embeddingModel IS NOT NULL AND m.embeddingModel <> $model AND m.embeddingModel <> 'client'))
  AND (v.contextId IS NULL OR EXISTS { MATCH (:Memory {id: v.contextId}) })
SET m.embedding = v.embedding,
    m.embeddingStatus = 'DONE',
    m.embeddingModel = $model,
    m.embeddingContextId = v.contextId,
    m.embeddedAt = datetime({epochMillis: $now})
REMOVE m.embeddingError
RETURN m.id AS id, m.store AS store
