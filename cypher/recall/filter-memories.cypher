// Memories by id under the same store and filters as direct matches: those reached
// by association, and a copied store's nearest by meaning. With a $vector (a store
// searched through the vector index, whose vectors are not in process), each
// memory's cosine to it and, with a $reference, to the reference questions' mean
// direction (its baseline: baseline.ts), read from its vector once; null without
// one. Neo4j reports cosine as (1 + cos) / 2; this returns cos itself.
// The memory comes back as the list memoryFromValues reads (records.ts says why).
// params: $ids, $store, $tiers, $from, $to, $tags, $people, $sessionId, $vector, $reference
// returns: memory, similarity, reference
MATCH (node:Memory)
WHERE node.id IN $ids
  AND node.store = $store
  AND ($tiers IS NULL OR node.tier IN $tiers)
  AND ($from IS NULL OR node.occurredAt >= datetime({epochMillis: $from}))
  AND ($to IS NULL OR node.occurredAt <= datetime({epochMillis: $to}))
  AND ($tags IS NULL OR any(tag IN $tags WHERE tag IN node.tags))
  AND ($people IS NULL OR any(person IN $people WHERE person IN node.people))
  AND ($sessionId IS NULL OR node.sessionId = $sessionId)
WITH node, CASE WHEN $vector IS NULL THEN null ELSE node.embedding END AS embedding
RETURN [node.id, node.store, node.content, node.tier, node.claimed, node.tags, node.people, node.emotions,
  node.metadata, node.occurredAt.epochMillis, node.createdAt.epochMillis, node.lastAccessedAt.epochMillis,
  node.accessCount, node.sessionId, node.claimedAt.epochMillis, node.tierChangedAt.epochMillis, node.salience,
  node.salienceAt.epochMillis, node.salienceAnchor, node.salienceAnchorAt.epochMillis, node.salienceAnchorTier,
  node.salienceAnchorUses, node.salienceAnchorClaimed, node.salienceUses, node.salienceUsedAt.epochMillis,
  node.usefulness] AS memory,
  CASE WHEN embedding IS NULL THEN null ELSE vector.similarity.cosine(embedding, $vector) * 2 - 1 END AS similarity,
  CASE WHEN embedding IS NULL OR $reference IS NULL THEN null
    ELSE vector.similarity.cosine(embedding, $reference) * 2 - 1 END AS reference
