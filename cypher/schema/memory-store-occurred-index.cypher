// Recall reads the memories of a store that happened on a date a question names.
// params: none
// returns: none
CREATE INDEX memory_store_occurred IF NOT EXISTS FOR (m:Memory) ON (m.store, m.occurredAt)
