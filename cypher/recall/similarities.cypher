// The cosine similarity to the query's $vector of memories of $store by id: the
// direct candidates (full-text matches, memories of named dates) of a store whose
// vectors are searched through the index (their records came before the vector).
// Neo4j reports cosine as (1 + cos) / 2; this returns cos itself. With a
// $reference (the reference questions' mean direction), also the cosine to it,
// from which Recall takes each memory's baseline (baseline.ts).
// The vector is read once into `embedding`: each `m.embedding` reads the stored
// list again (3 KB over about 26 records), which cost a third of the statement.
// params: $ids, $store, $vector, $reference
// returns: id, similarity, reference
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.store = $store
WITH m, m.embedding AS embedding
WHERE embedding IS NOT NULL
RETURN m.id AS id, vector.similarity.cosine(embedding, $vector) * 2 - 1 AS similarity,
  CASE WHEN $reference IS NULL THEN null
    ELSE vector.similarity.cosine(embedding, $reference) * 2 - 1 END AS reference
