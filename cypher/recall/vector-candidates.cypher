// Semantic candidates of a store too large to keep in process: the vector
// index's $k nearest memories across all stores (Neo4j 5's index cannot filter
// inside the search), kept when they belong to $store and pass the filters.
// Neo4j reports cosine as (1 + cos) / 2; this returns cos itself.
// The memory comes back as MemoryRecord's properties only (MEMORY_RECORD_PROPERTIES):
// reading the whole node would read its 384-float embedding too (measured at 100k
// memories, 60 full-text matches: 13.7 → 11.9 ms median).
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
RETURN node {.id, .store, .content, .tier, .claimed, .tags, .people, .emotions, .metadata, .occurredAt, .createdAt, .lastAccessedAt, .accessCount, .sessionId, .claimedAt, .tierChangedAt, .salience, .salienceAt, .salienceAnchor, .salienceAnchorAt, .salienceAnchorTier, .salienceAnchorUses, .salienceAnchorClaimed, .salienceUses, .salienceUsedAt, .usefulness} AS memory, 2 * score - 1 AS similarity
