// The memories among $ids without an embedding of $model (a client-supplied
// vector is never recomputed; one of an earlier model is), with the text to embed.
// params: $ids, $model
// returns: id, content
MATCH (m:Memory)
WHERE m.id IN $ids AND (m.embedding IS NULL OR (m.embeddingModel IS NOT NULL AND m.embeddingModel <> $model AND m.embeddingModel <> 'client'))
RETURN m.id AS id, m.content AS content
ORDER BY m.id
