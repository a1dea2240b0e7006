// When a store last saw any recorded activity (its newest audit event; event
// ids sort by time), for consolidation's quiet-period rule. Read-only.
// params: $store
// returns: at
MATCH (e:Event)
WHERE e.store = $store AND e.id STARTS WITH 'evt_'
RETURN e.at AS at
ORDER BY e.id DESC
LIMIT 1
