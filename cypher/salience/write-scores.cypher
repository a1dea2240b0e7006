// Materialises scores (salience, salienceAt) of memories that still look as
// they did when scored (tier, claim, use counts); one that changed meanwhile
// is left for the next pass, so a stale score never overwrites a fresher one.
// Salience's own properties only.
// params: $rows, $now
// returns: written
WITH datetime({epochMillis: $now}) AS at
UNWIND $rows AS r
MATCH (m:Memory {id: r.id})
WHERE m.tier = r.tier AND m.claimed = r.claimed AND m.accessCount = r.accessCount
  AND coalesce(m.salienceUses, 0) = r.marked
SET m.salience = toFloat(r.salience), m.salienceAt = at, m.changedAt = timestamp()
RETURN count(m) AS written
