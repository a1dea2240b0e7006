// Forgets a memory with the mind's consent: earlier events about it lose their
// payloads, a MemoryForgotten tombstone is recorded, and the node with its
// content and links is removed. Returns nothing when the memory is gone already.
// params: $id, $now, $eventId, $payload, $commandId, $correlationId, $sessionId
// returns: store
MATCH (m:Memory {id: $id})
OPTIONAL MATCH (old:Event {memoryId: $id})
WITH m, collect(old) AS olds
FOREACH (o IN olds | SET o.payload = '{"redacted":true}')
MERGE (t:Event {id: $eventId})
  ON CREATE SET
    t.type = 'MemoryForgotten',
    t.store = m.store,
    t.at = datetime({epochMillis: $now}),
    t.memoryId = m.id,
    t.sessionId = $sessionId,
    t.causationId = $commandId,
    t.correlationId = $correlationId,
    t.payload = $payload
WITH m, m.store AS store
DETACH DELETE m
RETURN store
