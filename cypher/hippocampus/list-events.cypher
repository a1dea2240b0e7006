// A store's audit trail in time order, paged by event id.
// Ordered by store, then id: so the planner reads the (store, id) index in order
// and stops at the limit (ordered by id alone it sorted all of a store's events: 1.2M
// reads for a page of 1,000 at 1M memories, 376 against 66 ms).
// The index is named: on a small database the planner sometimes chose the store
// index alone and sorted (paging-plans.test.ts failed in CI once that way).
// params: $store, $after, $limit
// returns: event
MATCH (e:Event)
USING INDEX e:Event(store, id)
WHERE e.store = $store AND e.id > $after
RETURN e {.*} AS event
ORDER BY e.store, e.id
LIMIT $limit
