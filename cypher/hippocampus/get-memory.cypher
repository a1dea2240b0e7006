// Reads one memory by id (not an access: nothing is recorded).
// params: $id
// returns: memory
MATCH (m:Memory {id: $id})
RETURN m {.*, embedding: null} AS memory
