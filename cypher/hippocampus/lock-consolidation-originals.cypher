// Takes a write lock on each memory about to be consolidated (held until the
// transaction ends), so an overlapping consolidation of any of them waits for
// this one to commit and then sees it. The lock is the change stamp: an
// original does change, it gains its consolidation (a refusal rolls it back).
// Returns the ones another memory consolidates already; $newId, this
// consolidation's own memory, is not another (a replay finds its own).
// params: $ids, $newId
// returns: id
MATCH (o:Memory)
WHERE o.id IN $ids
WITH o
ORDER BY o.id
SET o.changedAt = timestamp()
WITH o
WHERE EXISTS { MATCH (c:Memory)-[:CONSOLIDATED_FROM]->(o) WHERE c.id <> $newId }
RETURN o.id AS id
