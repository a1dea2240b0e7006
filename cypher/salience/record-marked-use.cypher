// Counts a `markUsed` report as one use of each memory named, once per use id:
// each memory keeps the last 32 use ids counted, so a replayed transaction or a
// repeated event counts nothing twice, even after later uses committed (see
// apply-outcome.cypher for the bound). The single id kept before the list
// counts as counted too.
// Salience's own properties only.
// params: $ids, $useId, $now
// returns: id
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WITH m, coalesce(m.salienceUseIds, [u IN [m.salienceLastUseId] WHERE u IS NOT NULL]) AS counted
WHERE NOT $useId IN counted
SET m.salienceUses = coalesce(m.salienceUses, 0) + 1,
    m.salienceUsedAt = datetime({epochMillis: $now}),
    m.salienceUseIds = (counted + $useId)[-32..],
    m.salienceLastUseId = null,
    m.changedAt = timestamp()
RETURN m.id AS id
