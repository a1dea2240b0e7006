// Reads several memories by id, in no particular order (callers key by id).
// params: $ids
// returns: memory
MATCH (m:Memory)
WHERE m.id IN $ids
RETURN m {.*, embedding: null} AS memory
