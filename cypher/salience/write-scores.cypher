// Materialises scores (salience, salienceAt) of memories that still look as
// they did when scored (tier, claim, use counts); one that changed meanwhile
// is left for the next pass, so a stale score never overwrites a fresher one.
// Salience's own properties only, and not stamped (changedAt): the score is derived, and cold storage
// leaves it out.
// params: $rows, $now
// returns: written
WITH datetime({epochMillis: $now}) AS at
UNWIND $rows AS r
MATCH (m:Memory {id: r.id})
WHERE m.tier = r.tier AND m.claimed = r.claimed AND m.accessCount = r.accessCount
  AND coalesce(m.salienceUses, 0) = r.marked
SET m.salience = toFloat(r.salience), m.salienceAt = at
RETURN count(m) AS written
