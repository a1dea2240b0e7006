// The memories stored last in a store, newest first (Synapse's recent pool).
// params: none
// returns: none
CREATE INDEX memory_store_created IF NOT EXISTS FOR (m:Memory) ON (m.store, m.createdAt)
