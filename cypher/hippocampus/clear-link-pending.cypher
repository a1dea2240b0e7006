// Synapse has written these memories' mechanical links (MemoriesLinked): they
// no longer wait for linking. Repeating it changes nothing.
// params: $ids
// returns: id
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.linkPendingAt IS NOT NULL
REMOVE m.linkPendingAt
SET m.changedAt = timestamp()
RETURN m.id AS id
