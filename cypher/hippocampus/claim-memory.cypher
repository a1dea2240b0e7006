// Claims a memory: the flag is set in the same transaction that records the
// MemoryClaimed event; MemoryClaimed is published only after this commits.
// params: $id, $now, $eventId, $commandId, $correlationId, $sessionId
// returns: memory
MATCH (m:Memory {id: $id})
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'MemoryClaimed',
    e.store = m.store,
    e.at = datetime({epochMillis: $now}),
    e.memoryId = m.id,
    e.sessionId = $sessionId,
    e.causationId = $commandId,
    e.correlationId = $correlationId,
    e.payload = '{"claimCount":' + toString(coalesce(m.claimCount, 0) + 1) + '}',
    m.claimed = true,
    m.claimedAt = coalesce(m.claimedAt, datetime({epochMillis: $now})),
    m.claimCount = coalesce(m.claimCount, 0) + 1,
    m.changedAt = timestamp(),
    e.changedAt = timestamp()
MERGE (e)-[:ABOUT]->(m)
RETURN m {.*, embedding: null} AS memory
