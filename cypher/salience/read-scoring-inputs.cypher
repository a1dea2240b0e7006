// What the score of some memories depends on (after an access, a claim, a use
// or the mind's tier change), times as epoch ms.
// params: $ids
// returns: id, store, tier, createdAt, lastAccessedAt, accessCount, claimed, claimedAt, tierChangedAt, salience,
//   salienceAt, anchorLevel, anchorAt, anchorTier, anchorUses, anchorClaimed, marked, markedAt
MATCH (m:Memory)
WHERE m.id IN $ids
RETURN m.id AS id, m.store AS store, m.tier AS tier, m.createdAt.epochMillis AS createdAt,
       m.lastAccessedAt.epochMillis AS lastAccessedAt, m.accessCount AS accessCount, m.claimed AS claimed,
       m.claimedAt.epochMillis AS claimedAt, m.tierChangedAt.epochMillis AS tierChangedAt,
       m.salience AS salience, m.salienceAt.epochMillis AS salienceAt,
       m.salienceAnchor AS anchorLevel, m.salienceAnchorAt.epochMillis AS anchorAt, m.salienceAnchorTier AS anchorTier,
       m.salienceAnchorUses AS anchorUses, m.salienceAnchorClaimed AS anchorClaimed,
       m.salienceUses AS marked, m.salienceUsedAt.epochMillis AS markedAt
