// Moves the anchor the score decays from (after uses, a claim or a tier change
// were folded in) and materialises the score, for memories that still look as
// they did when scored. Salience's own properties only.
// params: $rows, $now
// returns: written
WITH datetime({epochMillis: $now}) AS at
UNWIND $rows AS r
MATCH (m:Memory {id: r.id})
WHERE m.tier = r.tier AND m.claimed = r.claimed AND m.accessCount = r.accessCount
  AND coalesce(m.salienceUses, 0) = r.marked
SET m.salience = toFloat(r.salience), m.salienceAt = at,
    m.salienceAnchor = toFloat(r.level), m.salienceAnchorAt = datetime({epochMillis: r.anchorAt}),
    m.salienceAnchorTier = r.anchorTier, m.salienceAnchorUses = r.anchorUses, m.salienceAnchorClaimed = r.anchorClaimed,
    m.changedAt = timestamp()
RETURN count(m) AS written
