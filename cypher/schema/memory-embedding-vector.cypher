// Semantic candidates for recall: memory embeddings (e5-small-v2 or a
// client's own, 384 dimensions, unit length) compared by cosine similarity.
// The store is a filter property (Cypher 25, Neo4j 2026.01+): a search in one
// store walks only that store's vectors (recall/vector-candidates.cypher). An
// index made without it (Neo4j 5) is dropped first (src/adapters/neo4j/schema.ts).
// params: none
// returns: none
CYPHER 25
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS
FOR (m:Memory) ON (m.embedding)
WITH [m.store]
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}
