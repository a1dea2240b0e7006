// Forgets the last export of these scopes: after a restore the graph's element
// ids are new, so the next export starts a new chain.
// params: $scopes
// returns: count
MATCH (h:ColdStorageHead)
WHERE h.scope IN $scopes
DETACH DELETE h
RETURN count(h) AS count
