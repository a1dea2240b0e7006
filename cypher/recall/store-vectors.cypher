// A page of one store's embeddings in id order: what Recall's in-process copy
// of a small store's vectors is loaded from.
// Ordered by store, then id: so the planner walks the (store, id) index from this
// store's first id on. Ordered by id alone it walked the unique id index over
// every store's memories and dropped the others' (an empty store in a database of 1M: 1.6 s a page).
// The index is named: on a small database the planner sometimes chose the store
// index alone and sorted (paging-plans.test.ts failed in CI once that way).
// params: $store, $after, $limit
// returns: id, embedding, embeddedAt
MATCH (m:Memory)
USING INDEX m:Memory(store, id)
WHERE m.store = $store AND m.id > $after
WITH m ORDER BY m.store, m.id LIMIT $limit
RETURN m.id AS id, m.embedding AS embedding, m.embeddedAt.epochMillis AS embeddedAt
