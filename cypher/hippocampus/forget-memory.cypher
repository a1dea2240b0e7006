// Forgets a memory with the mind's consent: earlier events about it lose their
// payloads, a MemoryForgotten tombstone is recorded, and the node with its
// content and links is removed. The memories embedded with its content as
// context (embeddingContextId, set by attach-embeddings; the next one in its
// session) lose that vector and wait to be embedded again, so nothing derived
// from the content stays. A consolidated memory made from it is a memory of
// its own and stays (deleting it needs its own consent); its id and metadata
// are returned so that its record of this original can be redacted.
// Returns nothing when the memory is gone already, and when the tombstone
// $eventId exists: a replay of a forget that committed does nothing, even to a
// memory stored again under the same id meanwhile (by another store: this one refuses the id, ID_FORGOTTEN).
// params: $id, $now, $eventId, $payload, $commandId, $correlationId, $sessionId
// returns: store, embeddedWith, consolidations
MATCH (m:Memory {id: $id})
WHERE NOT EXISTS { MATCH (:Event {id: $eventId}) }
OPTIONAL MATCH (old:Event {memoryId: $id})
WITH m, collect(old) AS olds
FOREACH (o IN olds | SET o.payload = '{"redacted":true}', o.changedAt = timestamp())
MERGE (t:Event {id: $eventId})
  ON CREATE SET
    t.type = 'MemoryForgotten',
    t.store = m.store,
    t.at = datetime({epochMillis: $now}),
    t.memoryId = m.id,
    t.sessionId = $sessionId,
    t.causationId = $commandId,
    t.correlationId = $correlationId,
    t.payload = $payload,
    t.changedAt = timestamp()
WITH m, m.store AS store
CALL (m) {
  // The session's index, named: left to choose, the planner read the whole store by its (store) index.
  MATCH (n:Memory)
  USING INDEX n:Memory(sessionId, occurredAt)
  WHERE m.sessionId IS NOT NULL AND n.sessionId = m.sessionId AND n.occurredAt IS NOT NULL AND n.store = m.store
    AND n.embeddingContextId = m.id
  SET n.embedding = null, n.embeddingStatus = 'PENDING', n.embeddingModel = null, n.embeddedAt = null,
    n.embeddingContextId = null, n.changedAt = timestamp()
  RETURN collect(n.id) AS embeddedWith
}
CALL (m) {
  OPTIONAL MATCH (c:Memory)-[:CONSOLIDATED_FROM]->(m)
  RETURN collect(c {.id, .metadata}) AS consolidations
}
DETACH DELETE m
RETURN store, embeddedWith, consolidations
