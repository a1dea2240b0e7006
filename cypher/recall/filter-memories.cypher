// Memories reached by association, under the same store and filters as direct matches.
// The memory comes back as the list memoryFromValues reads (records.ts says why).
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
RETURN [node.id, node.store, node.content, node.tier, node.claimed, node.tags, node.people, node.emotions,
  node.metadata, node.occurredAt.epochMillis, node.createdAt.epochMillis, node.lastAccessedAt.epochMillis,
  node.accessCount, node.sessionId, node.claimedAt.epochMillis, node.tierChangedAt.epochMillis, node.salience,
  node.salienceAt.epochMillis, node.salienceAnchor, node.salienceAnchorAt.epochMillis, node.salienceAnchorTier,
  node.salienceAnchorUses, node.salienceAnchorClaimed, node.salienceUses, node.salienceUsedAt.epochMillis,
  node.usefulness] AS memory
