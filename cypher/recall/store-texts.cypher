// A page of one store's memories as text, in id order: what Recall's per-store
// term statistics are built from.
// Ordered by store, then id: so the planner walks the (store, id) index from this
// store's first id on. Ordered by id alone it walked the unique id index over
// every store's memories and dropped the others' (a store of 3 in a database of 1M: 1.8 s a page).
// The index is named: on a small database the planner sometimes chose the store
// index alone and sorted (paging-plans.test.ts failed in CI once that way).
// params: $store, $after, $limit
// returns: id, content, tags, people
MATCH (m:Memory)
USING INDEX m:Memory(store, id)
WHERE m.store = $store AND m.id > $after
RETURN m.id AS id, m.content AS content, m.tags AS tags, m.people AS people
ORDER BY m.store, m.id
LIMIT $limit
