// Creates the memory that consolidates several originals. The originals are
// kept and linked from it (CONSOLIDATED_FROM); MemoryStored is recorded for the
// new memory and MemoryConsolidated about it and each original.
// params: $memory, $linking, $from, $now, $storedEventId, $consolidatedEventId, $payload, $commandId, $correlationId,
//   $sessionId
// returns: memory
MERGE (n:Memory {id: $memory.id})
  ON CREATE SET
    n.store = $memory.store,
    n.storeKey = $memory.storeKey,
    n.content = $memory.content,
    n.tier = $memory.tier,
    n.claimed = $memory.claimed,
    n.tags = $memory.tags,
    n.people = $memory.people,
    n.emotions = $memory.emotions,
    n.metadata = $memory.metadata,
    n.sessionId = $memory.sessionId,
    n.embeddingStatus = 'PENDING',
    n.occurredAt = datetime({epochMillis: $memory.occurredAt}),
    n.createdAt = datetime({epochMillis: $now}),
    n.accessCount = 0,
    n.linkPendingAt = CASE WHEN $linking THEN datetime({epochMillis: $now}) ELSE null END,
    n.storedBy = $commandId
SET n:$(n.tier), n.changedAt = timestamp()
WITH n
UNWIND $from AS originalId
MATCH (o:Memory {id: originalId})
MERGE (n)-[:CONSOLIDATED_FROM]->(o)
WITH n, collect(o) AS originals
MERGE (s:Event {id: $storedEventId})
  ON CREATE SET
    s.type = 'MemoryStored',
    s.store = n.store,
    s.at = datetime({epochMillis: $now}),
    s.memoryId = n.id,
    s.sessionId = $sessionId,
    s.causationId = $commandId,
    s.correlationId = $correlationId,
    s.payload = $payload,
    s.changedAt = timestamp()
MERGE (s)-[:ABOUT]->(n)
MERGE (c:Event {id: $consolidatedEventId})
  ON CREATE SET
    c.type = 'MemoryConsolidated',
    c.store = n.store,
    c.at = datetime({epochMillis: $now}),
    c.memoryId = n.id,
    c.sessionId = $sessionId,
    c.causationId = $commandId,
    c.correlationId = $correlationId,
    c.payload = $payload,
    c.changedAt = timestamp()
MERGE (c)-[:ABOUT]->(n)
FOREACH (o IN originals | MERGE (c)-[:ABOUT]->(o))
RETURN n {.*, embedding: null} AS memory
