// Ids of a store's memories in one tier, newest first (resume reads identity
// and active context through Hippocampus with these). Read-only.
// params: $store, $tier, $limit
// returns: id
MATCH (m:Memory)
WHERE m.store = $store AND m.tier = $tier
RETURN m.id AS id
ORDER BY m.createdAt DESC, m.id DESC
LIMIT $limit
