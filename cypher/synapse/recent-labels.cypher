// The tags and people of the $limit memories stored last in a store (range
// index memory_store_created, read in index order): the sample from which a
// linking batch tells common labels from rare ones.
// params: $store, $limit
// returns: tags, people
MATCH (c:Memory)
WHERE c.store = $store AND c.createdAt IS NOT NULL
WITH c ORDER BY c.store DESC, c.createdAt DESC
LIMIT $limit
RETURN c.tags AS tags, c.people AS people
