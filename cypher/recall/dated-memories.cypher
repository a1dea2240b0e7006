// Memories of $store that happened within one of the $spans a question names
// (epoch ms, from inclusive, to exclusive; index memory_store_occurred), under
// the search's filters, at most $limit, newest first. They join the candidates
// beside the full-text matches, and the date admits them even without a word
// or a meaning in common ("what happened on 3 June 2023?").
// The memory comes back as the list memoryFromValues reads (records.ts says why).
// params: $spans, $limit, $store, $tiers, $from, $to, $tags, $people, $sessionId
// returns: memory
UNWIND $spans AS span
CALL (span) {
  // Newest first in the index's own order (store, then occurredAt: naming both lets the planner read the index
  // backwards and stop), so a span of a month in a 1M store reads $limit memories, not all 46k of it (270 → 10 ms).
  // Memories of the very same millisecond at the cut come in index order; the final order below is by id.
  MATCH (node:Memory)
  WHERE node.store = $store
    AND node.occurredAt >= datetime({epochMillis: span.from})
    AND node.occurredAt < datetime({epochMillis: span.to})
    AND ($tiers IS NULL OR node.tier IN $tiers)
    AND ($from IS NULL OR node.occurredAt >= datetime({epochMillis: $from}))
    AND ($to IS NULL OR node.occurredAt <= datetime({epochMillis: $to}))
    AND ($tags IS NULL OR any(tag IN $tags WHERE tag IN node.tags))
    AND ($people IS NULL OR any(person IN $people WHERE person IN node.people))
    AND ($sessionId IS NULL OR node.sessionId = $sessionId)
  WITH node ORDER BY node.store DESC, node.occurredAt DESC LIMIT $limit
  RETURN node
}
WITH DISTINCT node
ORDER BY node.occurredAt DESC, node.id
LIMIT $limit
RETURN [node.id, node.store, node.content, node.tier, node.claimed, node.tags, node.people, node.emotions,
  node.metadata, node.occurredAt.epochMillis, node.createdAt.epochMillis, node.lastAccessedAt.epochMillis,
  node.accessCount, node.sessionId, node.claimedAt.epochMillis, node.tierChangedAt.epochMillis, node.salience,
  node.salienceAt.epochMillis, node.salienceAnchor, node.salienceAnchorAt.epochMillis, node.salienceAnchorTier,
  node.salienceAnchorUses, node.salienceAnchorClaimed, node.salienceUses, node.salienceUsedAt.epochMillis,
  node.usefulness] AS memory
