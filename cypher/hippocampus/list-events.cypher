// A store's audit trail in time order, paged by event id.
// Ordered by store, then id: so the planner reads the (store, id) index in order
// and stops at the limit (ordered by id alone it sorted all of a store's events: 1.2M
// reads for a page of 1,000 at 1M memories, 376 against 66 ms).
// params: $store, $after, $limit
// returns: event
MATCH (e:Event)
WHERE e.store = $store AND e.id > $after
RETURN e {.*} AS event
ORDER BY e.store, e.id
LIMIT $limit
