// The cosine similarity to the query's $vector of memories of $store by id: the
// direct candidates (full-text matches, memories of named dates) of a store whose
// vectors are searched through the index (their records came before the vector).
// Neo4j reports cosine as (1 + cos) / 2; this returns cos itself. With a
// $reference (the reference questions' mean direction), also the cosine to it,
// from which Recall takes each memory's baseline (baseline.ts).
// params: $ids, $store, $vector, $reference
// returns: id, similarity, reference
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.store = $store AND m.embedding IS NOT NULL
RETURN m.id AS id, vector.similarity.cosine(m.embedding, $vector) * 2 - 1 AS similarity,
  CASE WHEN $reference IS NULL THEN null
    ELSE vector.similarity.cosine(m.embedding, $reference) * 2 - 1 END AS reference
