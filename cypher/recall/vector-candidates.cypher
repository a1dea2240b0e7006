// Semantic candidates of a store too large to keep in process: the $k nearest
// memories of $store in the vector index, which filters by store inside its
// search (the store is the index's filter property; Cypher 25 SEARCH), then
// kept when they pass the other filters.
// Neo4j reports cosine as (1 + cos) / 2; this returns cos itself, and with a
// $reference the cosine to it too (each memory's baseline: baseline.ts).
// The memory comes back as the list memoryFromValues reads (records.ts says why).
// params: $vector, $k, $limit, $store, $tiers, $from, $to, $tags, $people, $sessionId, $reference
// returns: memory, similarity, reference
CYPHER 25
MATCH (node:Memory)
  SEARCH node IN (VECTOR INDEX memory_embedding FOR $vector WHERE node.store = $store LIMIT $k) SCORE AS score
WITH node, score
WHERE ($tiers IS NULL OR node.tier IN $tiers)
  AND ($from IS NULL OR node.occurredAt >= datetime({epochMillis: $from}))
  AND ($to IS NULL OR node.occurredAt <= datetime({epochMillis: $to}))
  AND ($tags IS NULL OR any(tag IN $tags WHERE tag IN node.tags))
  AND ($people IS NULL OR any(person IN $people WHERE person IN node.people))
  AND ($sessionId IS NULL OR node.sessionId = $sessionId)
WITH node, score ORDER BY score DESC, node.id LIMIT $limit
RETURN [node.id, node.store, node.content, node.tier, node.claimed, node.tags, node.people, node.emotions,
  node.metadata, node.occurredAt.epochMillis, node.createdAt.epochMillis, node.lastAccessedAt.epochMillis,
  node.accessCount, node.sessionId, node.claimedAt.epochMillis, node.tierChangedAt.epochMillis, node.salience,
  node.salienceAt.epochMillis, node.salienceAnchor, node.salienceAnchorAt.epochMillis, node.salienceAnchorTier,
  node.salienceAnchorUses, node.salienceAnchorClaimed, node.salienceUses, node.salienceUsedAt.epochMillis,
  node.usefulness] AS memory, 2 * score - 1 AS similarity,
  CASE WHEN $reference IS NULL THEN null
    ELSE vector.similarity.cosine(node.embedding, $reference) * 2 - 1 END AS reference
