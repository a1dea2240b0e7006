// Tier changes asked for by Salience (PromoteTier / DemoteTier), already
// checked against the tier rules. A change whose `from` no longer holds is
// skipped (the memory moved meanwhile). Each change records TierChanged. The
// tier label follows the tier.
// params: $changes, $now, $commandId, $correlationId
// returns: id, tier, store
UNWIND $changes AS change
MATCH (m:Memory {id: change.id})
WHERE m.tier = change.from
MERGE (e:Event {id: change.eventId})
  ON CREATE SET
    e.type = 'TierChanged',
    e.store = m.store,
    e.at = datetime({epochMillis: $now}),
    e.memoryId = m.id,
    e.causationId = $commandId,
    e.correlationId = $correlationId,
    e.payload = change.payload,
    m.tier = change.to,
    m.tierChangedAt = datetime({epochMillis: $now}),
    m.changedAt = timestamp(),
    e.changedAt = timestamp()
MERGE (e)-[:ABOUT]->(m)
REMOVE m:IDENTITY_CORE:ACTIVE_CONTEXT:LONG_TERM:ARCHIVE
SET m:$(m.tier)
RETURN m.id AS id, m.tier AS tier, m.store AS store
