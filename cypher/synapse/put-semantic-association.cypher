// The mind's CREATE: makes the link (lo → hi), or takes over the one that
// exists (its origin becomes SEMANTIC), at the given strength. Sets absolute
// values only, so a replay changes nothing.
// params: $lo, $hi, $type, $strength, $now, $changeId
// returns: origin, strength, createdAt, updatedAt
MATCH (lo:Memory {id: $lo})
MATCH (hi:Memory {id: $hi})
MERGE (lo)-[r:$($type)]->(hi)
  ON CREATE SET r.createdAt = datetime({epochMillis: $now})
SET r.origin = 'SEMANTIC',
    r.strength = toFloat($strength),
    r.updatedAt = datetime({epochMillis: $now}),
    r.changeId = $changeId,
    lo.changedAt = timestamp()
RETURN r.origin AS origin, r.strength AS strength, r.createdAt AS createdAt, r.updatedAt AS updatedAt
