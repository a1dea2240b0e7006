// The memories among $ids that still have no embedding (a client-supplied or
// already computed vector is never recomputed), with the text to embed.
// params: $ids
// returns: id, content
MATCH (m:Memory)
WHERE m.id IN $ids AND m.embedding IS NULL
RETURN m.id AS id, m.content AS content
ORDER BY m.id
