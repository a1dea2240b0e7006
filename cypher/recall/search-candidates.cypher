// Direct matches from the full-text index, scoped to one store inside Lucene
// (the query carries the store's key), then filtered. Returns BM25 scores and,
// given the query's $vector (a store searched through the vector index), each
// match's cosine similarity to it (else null).
// The memory comes back as MemoryRecord's properties only (MEMORY_RECORD_PROPERTIES):
// reading the whole node would read its 384-float embedding too (measured at 100k
// memories, 60 full-text matches: 13.7 → 11.9 ms median).
// params: $query, $limit, $vector, $store, $tiers, $from, $to, $tags, $people, $sessionId
// returns: memory, score, similarity
CALL db.index.fulltext.queryNodes('memory_text', $query, {limit: $limit}) YIELD node, score
WHERE node.store = $store
  AND ($tiers IS NULL OR node.tier IN $tiers)
  AND ($from IS NULL OR node.occurredAt >= datetime({epochMillis: $from}))
  AND ($to IS NULL OR node.occurredAt <= datetime({epochMillis: $to}))
  AND ($tags IS NULL OR any(tag IN $tags WHERE tag IN node.tags))
  AND ($people IS NULL OR any(person IN $people WHERE person IN node.people))
  AND ($sessionId IS NULL OR node.sessionId = $sessionId)
RETURN node {.id, .store, .content, .tier, .claimed, .tags, .people, .emotions, .metadata, .occurredAt, .createdAt, .lastAccessedAt, .accessCount, .sessionId, .claimedAt, .tierChangedAt, .salience, .salienceAt, .salienceAnchor, .salienceAnchorAt, .salienceAnchorTier, .salienceAnchorUses, .salienceAnchorClaimed, .salienceUses, .salienceUsedAt, .usefulness} AS memory, score,
  CASE WHEN $vector IS NULL OR node.embedding IS NULL THEN null ELSE vector.similarity.cosine(node.embedding, $vector) * 2 - 1 END AS similarity
