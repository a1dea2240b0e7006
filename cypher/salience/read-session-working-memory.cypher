// A session's working memory: its ACTIVE_CONTEXT memories, which move down
// when the session ends unless claimed.
// params: $store, $sessionId
// returns: id, store, tier, createdAt, lastAccessedAt, accessCount, claimed, claimedAt, tierChangedAt, salience,
//   salienceAt, anchorLevel, anchorAt, anchorTier, anchorUses, anchorClaimed, marked, markedAt
MATCH (m:Memory)
WHERE m.store = $store AND m.sessionId = $sessionId AND m.tier = 'ACTIVE_CONTEXT'
RETURN m.id AS id, m.store AS store, m.tier AS tier, m.createdAt.epochMillis AS createdAt,
       m.lastAccessedAt.epochMillis AS lastAccessedAt, m.accessCount AS accessCount, m.claimed AS claimed,
       m.claimedAt.epochMillis AS claimedAt, m.tierChangedAt.epochMillis AS tierChangedAt,
       m.salience AS salience, m.salienceAt.epochMillis AS salienceAt,
       m.salienceAnchor AS anchorLevel, m.salienceAnchorAt.epochMillis AS anchorAt, m.salienceAnchorTier AS anchorTier,
       m.salienceAnchorUses AS anchorUses, m.salienceAnchorClaimed AS anchorClaimed,
       m.salienceUses AS marked, m.salienceUsedAt.epochMillis AS markedAt
