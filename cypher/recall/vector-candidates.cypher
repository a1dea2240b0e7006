// Semantic candidates of a store too large to keep in process: the vector
// index's $k nearest memories across all stores (Neo4j 5's index cannot filter
// inside the search), kept when they belong to $store and pass the filters.
// Neo4j reports cosine as (1 + cos) / 2; this returns cos itself.
// The memory comes back as the list memoryFromValues reads (records.ts says why).
// params: $vector, $k, $limit, $store, $tiers, $from, $to, $tags, $people, $sessionId
// returns: memory, similarity
CALL db.index.vector.queryNodes('memory_embedding', $k, $vector) YIELD node, score
WITH node, score
WHERE node.store = $store
  AND ($tiers IS NULL OR node.tier IN $tiers)
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
  node.usefulness] AS memory, 2 * score - 1 AS similarity
