// Counts a `markUsed` report as one use of each memory named, once per use id
// (a replayed transaction or a repeated event counts nothing twice).
// Salience's own properties only.
// params: $ids, $useId, $now
// returns: id
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE coalesce(m.salienceLastUseId, '') <> $useId
SET m.salienceUses = coalesce(m.salienceUses, 0) + 1,
    m.salienceUsedAt = datetime({epochMillis: $now}),
    m.salienceLastUseId = $useId,
    m.changedAt = timestamp()
RETURN m.id AS id
