// The tags, people and content of the $limit memories stored last in a store
// (range index memory_store_created, read in index order): the sample from
// which a linking batch tells common labels and words from rare ones.
// params: $store, $limit
// returns: tags, people, content
MATCH (c:Memory)
WHERE c.store = $store AND c.createdAt IS NOT NULL
WITH c ORDER BY c.store DESC, c.createdAt DESC
LIMIT $limit
RETURN c.tags AS tags, c.people AS people, c.content AS content
