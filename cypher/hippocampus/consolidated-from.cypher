// The originals a consolidated memory was made from.
// params: $id
// returns: memory
MATCH (:Memory {id: $id})-[:CONSOLIDATED_FROM]->(o:Memory)
RETURN o {.*, embedding: null} AS memory
ORDER BY o.occurredAt, o.id
