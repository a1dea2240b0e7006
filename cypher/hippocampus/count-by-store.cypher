// How many memories each of these stores holds, one row per store (health's
// embedding progress: done is what is neither waiting nor failed).
// params: $stores
// returns: store, total
UNWIND $stores AS store
MATCH (m:Memory {store: store})
RETURN store, count(m) AS total
