// The memories forgotten at or after $since (Neo4j ms), in scope, for a
// cold-storage delta: forgetting is the only way the service deletes a node,
// and its MemoryForgotten event stays behind, stamped. Read-only.
// params: $stores, $since
// returns: id
MATCH (e:Event)
WHERE e.type = 'MemoryForgotten' AND e.changedAt >= $since AND ($stores IS NULL OR e.store IN $stores)
RETURN DISTINCT e.memoryId AS id
