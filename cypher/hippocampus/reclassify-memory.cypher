// The mind's own tier change, with its reason kept in the history. Records
// MemoryReclassified, and TierChanged when the tier really moves. The tier
// label follows the tier. Guarded by the tier it was read with.
// params: $id, $from, $tier, $metadata, $now, $eventId, $tierEventId, $payload, $commandId, $correlationId, $sessionId
// returns: memory
MATCH (m:Memory {id: $id})
// A tier edited by hand into no tier is read as LONG_TERM (memory-record.ts): the mind may set it right.
WHERE m.tier = $from OR NOT coalesce(m.tier, '') IN ['IDENTITY_CORE', 'ACTIVE_CONTEXT', 'LONG_TERM', 'ARCHIVE']
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'MemoryReclassified',
    e.store = m.store,
    e.at = datetime({epochMillis: $now}),
    e.memoryId = m.id,
    e.sessionId = $sessionId,
    e.causationId = $commandId,
    e.correlationId = $correlationId,
    e.payload = $payload,
    m.tier = $tier,
    m.metadata = coalesce($metadata, m.metadata),
    m.tierChangedAt = CASE WHEN $from <> $tier THEN datetime({epochMillis: $now}) ELSE m.tierChangedAt END,
    m.changedAt = timestamp(),
    e.changedAt = timestamp()
MERGE (e)-[:ABOUT]->(m)
REMOVE m:IDENTITY_CORE:ACTIVE_CONTEXT:LONG_TERM:ARCHIVE
SET m:$(m.tier)
FOREACH (_ IN CASE WHEN $from <> $tier THEN [1] ELSE [] END |
  MERGE (t:Event {id: $tierEventId})
    ON CREATE SET
      t.type = 'TierChanged',
      t.store = m.store,
      t.at = datetime({epochMillis: $now}),
      t.memoryId = m.id,
      t.sessionId = $sessionId,
      t.causationId = $commandId,
      t.correlationId = $correlationId,
      t.payload = $payload,
      t.changedAt = timestamp()
  MERGE (t)-[:ABOUT]->(m)
)
RETURN m {.*, embedding: null} AS memory
