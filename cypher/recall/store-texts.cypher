// A page of one store's memories as text, in id order: what Recall's per-store
// term statistics are built from.
// params: $store, $after, $limit
// returns: id, content, tags, people
MATCH (m:Memory)
WHERE m.store = $store AND m.id > $after
RETURN m.id AS id, m.content AS content, m.tags AS tags, m.people AS people
ORDER BY m.id
LIMIT $limit
