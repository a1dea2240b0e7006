// Every query is scoped to one store.
// params: none
// returns: none
CREATE INDEX memory_store IF NOT EXISTS FOR (m:Memory) ON (m.store)
