// Memories reached by association, under the same store and filters as direct matches.
// The memory comes back as MemoryRecord's properties only (MEMORY_RECORD_PROPERTIES):
// reading the whole node would read its 384-float embedding too (measured at 100k
// memories, 60 full-text matches: 13.7 → 11.9 ms median).
// params: $ids, $store, $tiers, $from, $to, $tags, $people, $sessionId
// returns: memory
MATCH (node:Memory)
WHERE node.id IN $ids
  AND node.store = $store
  AND ($tiers IS NULL OR node.tier IN $tiers)
  AND ($from IS NULL OR node.occurredAt >= datetime({epochMillis: $from}))
  AND ($to IS NULL OR node.occurredAt <= datetime({epochMillis: $to}))
  AND ($tags IS NULL OR any(tag IN $tags WHERE tag IN node.tags))
  AND ($people IS NULL OR any(person IN $people WHERE person IN node.people))
  AND ($sessionId IS NULL OR node.sessionId = $sessionId)
RETURN node {.id, .store, .content, .tier, .claimed, .tags, .people, .emotions, .metadata, .occurredAt, .createdAt, .lastAccessedAt, .accessCount, .sessionId, .claimedAt, .tierChangedAt, .salience, .salienceAt, .salienceAnchor, .salienceAnchorAt, .salienceAnchorTier, .salienceAnchorUses, .salienceAnchorClaimed, .salienceUses, .salienceUsedAt, .usefulness} AS memory
