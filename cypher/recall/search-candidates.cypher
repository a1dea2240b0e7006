// Direct matches from the full-text index, scoped to one store inside Lucene
// (the query carries the store's key; for a store holding most of the index
// it may not, and the store test below keeps its own), then filtered, with
// their BM25 scores, best first.
// It runs while the query is still being embedded: the matches' similarity to
// the query's vector comes later, from the store's vectors (similarities.cypher).
// The memory comes back as the list memoryFromValues reads (records.ts says why).
// params: $query, $limit, $store, $tiers, $from, $to, $tags, $people, $sessionId
// returns: memory, score
CALL db.index.fulltext.queryNodes('memory_text', $query, {limit: $limit}) YIELD node, score
WHERE node.store = $store
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
  node.usefulness] AS memory, score
