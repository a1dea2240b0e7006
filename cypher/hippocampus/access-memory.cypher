// Records a read by id: the MemoryAccessed event and the access count, applied
// once per event id (ON CREATE), so a replay cannot count an access twice.
// params: $id, $now, $eventId, $commandId, $correlationId, $sessionId
// returns: memory
MATCH (m:Memory {id: $id})
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'MemoryAccessed',
    e.store = m.store,
    e.at = datetime({epochMillis: $now}),
    e.memoryId = m.id,
    e.sessionId = $sessionId,
    e.causationId = $commandId,
    e.correlationId = $correlationId,
    m.accessCount = coalesce(m.accessCount, 0) + 1,
    m.lastAccessedAt = datetime({epochMillis: $now}),
    m.changedAt = timestamp(),
    e.changedAt = timestamp()
MERGE (e)-[:ABOUT]->(m)
RETURN m {.*, embedding: null} AS memory
