// Stores memories with their MemoryStored events, in one transaction: one call's
// batch, or single stores of several calls grouped (each input carries its own
// command, correlation and time, and comes back with its index in $memories).
// A memory whose id exists already is left untouched (a retried store is a no-op)
// and comes back with created = false. The event is MERGEd on its id, so a
// replayed transaction records nothing twice. Without a client embedding the
// memory waits for the embedding job (embeddingStatus PENDING); with $linking it
// waits for Synapse's links too (linkPendingAt, removed once linked). A memory stored
// in a session is linked to it (STORED_IN) when that session exists in its store.
// A memory carries its tier as a label too (Neo4j Browser colours memories by label).
// The memory comes back as the list memoryFromValues reads: a thousand maps
// with DateTime values cost Node more to decode than the statement costs Neo4j.
// A client's id (input.clientId) that this store has forgotten is not stored again: it comes back with
// forgotten = true, memory null and nothing written (ID_FORGOTTEN). Only a client's id with no memory now is
// looked up (an existing one is a retry or a conflict), by one seek on event_memory_id; a generated id never is.
// params: $memories, $linking
// returns: memory, created, forgotten, index
UNWIND $memories AS input
OPTIONAL CALL (input) {
  UNWIND CASE WHEN input.clientId THEN [input.id] ELSE [] END AS clientId
  OPTIONAL MATCH (kept:Memory {id: clientId})
  WITH clientId WHERE kept IS NULL
  // Its own subquery, so the memory is looked for first: a kept one's events (an access each) are never read.
  CALL (clientId, input) {
    MATCH (f:Event {memoryId: clientId})
    WHERE f.type = 'MemoryForgotten' AND f.store = input.store
    RETURN true AS forgotten
    LIMIT 1
  }
  RETURN forgotten
}
OPTIONAL CALL (input, forgotten) {
  WITH input WHERE forgotten IS NULL
  MERGE (m:Memory {id: input.id})
    ON CREATE SET
      m.store = input.store,
      m.storeKey = input.storeKey,
      m.content = input.content,
      m.tier = input.tier,
      m.claimed = false,
      m.tags = input.tags,
      m.people = input.people,
      m.emotions = input.emotions,
      m.metadata = input.metadata,
      m.sessionId = input.sessionId,
      m.embedding = input.embedding,
      m.embeddingStatus = CASE WHEN input.embedding IS NULL THEN 'PENDING' ELSE 'DONE' END,
      m.embeddingModel = CASE WHEN input.embedding IS NULL THEN null ELSE 'client' END,
      m.embeddedAt = CASE WHEN input.embedding IS NULL THEN null ELSE datetime({epochMillis: input.now}) END,
      m.occurredAt = datetime({epochMillis: input.occurredAt}),
      m.createdAt = datetime({epochMillis: input.now}),
      m.accessCount = 0,
      m.linkPendingAt = CASE WHEN $linking THEN datetime({epochMillis: input.now}) ELSE null END,
      m.storedBy = input.commandId,
      m.changedAt = timestamp()
  WITH m, input, m.storedBy = input.commandId AS created
  SET m:$(m.tier)
  FOREACH (_ IN CASE WHEN created THEN [1] ELSE [] END |
    MERGE (e:Event {id: input.eventId})
      ON CREATE SET
        e.type = 'MemoryStored',
        e.store = input.store,
        e.at = datetime({epochMillis: input.now}),
        e.memoryId = m.id,
        e.sessionId = input.sessionId,
        e.causationId = input.commandId,
        e.correlationId = input.correlationId,
        e.payload = input.eventPayload,
        e.changedAt = timestamp()
    MERGE (e)-[:ABOUT]->(m)
  )
  WITH m, input, created
  OPTIONAL MATCH (s:Session {id: input.sessionId})
  WHERE s.store = input.store
  FOREACH (_ IN CASE WHEN created AND s IS NOT NULL THEN [1] ELSE [] END | MERGE (m)-[:STORED_IN]->(s))
  RETURN [m.id, m.store, m.content, m.tier, m.claimed, m.tags, m.people, m.emotions, m.metadata,
    m.occurredAt.epochMillis, m.createdAt.epochMillis, m.lastAccessedAt.epochMillis, m.accessCount, m.sessionId,
    m.claimedAt.epochMillis, m.tierChangedAt.epochMillis, m.salience, m.salienceAt.epochMillis, m.salienceAnchor,
    m.salienceAnchorAt.epochMillis, m.salienceAnchorTier, m.salienceAnchorUses, m.salienceAnchorClaimed,
    m.salienceUses, m.salienceUsedAt.epochMillis, m.usefulness] AS memory, created
}
RETURN memory, created, forgotten IS NOT NULL AS forgotten, input.index AS index
