// A sweep of one store walks its memories in id order (cursor = last id).
// params: none
// returns: none
CREATE INDEX memory_store_id IF NOT EXISTS FOR (m:Memory) ON (m.store, m.id)
