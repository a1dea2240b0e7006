// Recall keeps small stores' vectors in process and catches up with the
// vectors attached since its last look: (store, embeddedAt) finds those
// without walking the store.
// params: none
// returns: none
CREATE INDEX memory_store_embedded IF NOT EXISTS FOR (m:Memory) ON (m.store, m.embeddedAt)
