// Where the next batches of a sweep of one store end: every $limit-th memory id
// after $after, and the last of the $batches · $limit read. Read from the index
// alone, so that several batches can run at once over ranges that do not overlap.
// params: $store, $after, $limit, $batches
// returns: bounds
MATCH (m:Memory)
WHERE m.store = $store AND m.id > $after
WITH m ORDER BY m.store, m.id LIMIT $limit * $batches
WITH collect(m.id) AS ids
RETURN [i IN range(1, size(ids)) WHERE i % $limit = 0 OR i = size(ids) | ids[i - 1]] AS bounds
