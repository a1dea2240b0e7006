// A store's audit trail in time order, paged by event id.
// params: $store, $after, $limit
// returns: event
MATCH (e:Event)
WHERE e.store = $store AND e.id > $after
RETURN e {.*} AS event
ORDER BY e.id
LIMIT $limit
