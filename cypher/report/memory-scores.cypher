// A store's memories with what their current salience is computed from (no
// content, no vector), for the report's salience distribution. Read-only.
// params: $store
// returns: memory
MATCH (m:Memory {store: $store})
RETURN m {.*, content: '', embedding: null} AS memory
