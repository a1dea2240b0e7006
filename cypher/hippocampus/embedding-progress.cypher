// Embedding progress per store: how many memories wait for their embedding
// (PENDING) and how many failed (FAILED), from the status index, for the
// stores given ($stores null: every store with any waiting or failed). Stores
// with neither give no row; their totals come from count-by-store.
// params: $stores
// returns: store, pending, failed
MATCH (m:Memory)
WHERE m.embeddingStatus IN ['PENDING', 'FAILED'] AND ($stores IS NULL OR m.store IN $stores)
RETURN m.store AS store,
       sum(CASE WHEN m.embeddingStatus = 'PENDING' THEN 1 ELSE 0 END) AS pending,
       sum(CASE WHEN m.embeddingStatus = 'FAILED' THEN 1 ELSE 0 END) AS failed
ORDER BY store
