// Semantic candidates for recall: memory embeddings (e5-small-v2 or a
// client's own, 384 dimensions, unit length) compared by cosine similarity.
// params: none
// returns: none
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS
FOR (m:Memory) ON (m.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
