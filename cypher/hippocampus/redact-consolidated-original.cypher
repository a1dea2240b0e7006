// A consolidated memory's record of an original that was forgotten: its
// metadata as rewritten without what the original's metadata said.
// params: $id, $metadata
// returns: id
MATCH (c:Memory {id: $id})
SET c.metadata = $metadata, c.changedAt = timestamp()
RETURN c.id AS id
