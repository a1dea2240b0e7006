// Records one recall: the Recall node (for markUsed), its MemoryRetrieved
// event and the links to the memories it returned. A retrieval is not an
// access: no memory property changes.
// params: $id, $store, $query, $hitIds, $now, $eventId, $payload, $correlationId, $sessionId
// returns: id
MERGE (r:Recall {id: $id})
  ON CREATE SET
    r.store = $store,
    r.query = $query,
    r.hitIds = $hitIds,
    r.sessionId = $sessionId,
    r.at = datetime({epochMillis: $now}),
    r.changedAt = timestamp()
MERGE (e:Event {id: $eventId})
  ON CREATE SET
    e.type = 'MemoryRetrieved',
    e.store = $store,
    e.at = datetime({epochMillis: $now}),
    e.sessionId = $sessionId,
    e.causationId = $id,
    e.correlationId = $correlationId,
    e.payload = $payload,
    e.changedAt = timestamp()
MERGE (e)-[:RECORDS]->(r)
WITH r, e
CALL {
  WITH r, e
  UNWIND $hitIds AS hitId
  MATCH (m:Memory {id: hitId})
  MERGE (r)-[:RETRIEVED]->(m)
  MERGE (e)-[:ABOUT]->(m)
}
RETURN r.id AS id
