// The store of each of these memories; an unknown id has no row.
// params: $ids
// returns: id, store
MATCH (m:Memory)
WHERE m.id IN $ids
RETURN m.id AS id, m.store AS store
