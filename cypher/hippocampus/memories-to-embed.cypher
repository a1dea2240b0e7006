// The memories among $ids without an embedding of $model (a client-supplied
// vector is never recomputed; one of an earlier model is), each with its
// context: the content of the memory just before it in its session (by
// occurredAt, range index memory_session_time), or null. A short reply ("yes,
// last week!") means little without what it answers (docs/recall.md).
// The context's id comes back too: attach-embeddings attaches the vector only
// while that memory exists (one forgotten meanwhile has not) and keeps the id.
// A memory whose content is not text (edited by hand in Neo4j Browser, say) has
// nothing to embed and is left out: it must not fail its whole page.
// params: $ids, $model
// returns: id, content, before, beforeId
MATCH (m:Memory)
WHERE m.id IN $ids AND m.content IS :: STRING NOT NULL AND (m.embedding IS NULL
  OR (m.embeddingModel IS NOT NULL AND m.embeddingModel <> $model AND m.embeddingModel <> 'client'))
WITH m, COLLECT {
  // The session's index, named: left to choose, the planner took (store, occurredAt) in a 1M-memory store and
  // read every memory before m in the store (about 1M rows, a second per memory) for a memory with no session.
  MATCH (p:Memory)
  USING INDEX p:Memory(sessionId, occurredAt)
  WHERE m.sessionId IS NOT NULL AND p.sessionId = m.sessionId AND p.occurredAt < m.occurredAt AND p.store = m.store
  RETURN p ORDER BY p.occurredAt DESC, p.id DESC LIMIT 1
} AS before
RETURN m.id AS id, m.content AS content, before[0].content AS before, before[0].id AS beforeId
ORDER BY m.id
