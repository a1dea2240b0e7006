// The $limit memories stored last in a store, newest first (range index
// memory_store_created, read in index order): the sample from which a linking
// batch tells common labels and words from rare ones, and the start of the
// store's newest-memories pool (people and emotions).
// params: $store, $limit
// returns: id, tags, people, emotions, content
MATCH (c:Memory)
WHERE c.store = $store AND c.createdAt IS NOT NULL
WITH c ORDER BY c.store DESC, c.createdAt DESC
LIMIT $limit
RETURN c.id AS id, c.tags AS tags, c.people AS people, c.emotions AS emotions, c.content AS content
