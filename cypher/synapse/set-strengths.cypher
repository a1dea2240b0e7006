// Sets the strength of existing links, found by their canonical ends (lo → hi)
// and type: a claim's boost, the mind's STRENGTHEN or WEAKEN. `changeId` marks
// the change, so a replayed transaction can see it applied already.
// params: $changes, $now, $changeId
// returns: a, b, type, origin, strength, createdAt, updatedAt
UNWIND $changes AS change
MATCH (lo:Memory {id: change.lo})-[r:$(change.type)]->(hi:Memory {id: change.hi})
SET r.strength = toFloat(change.strength),
    r.updatedAt = datetime({epochMillis: $now}),
    r.changeId = $changeId,
    lo.changedAt = timestamp()
RETURN lo.id AS a, hi.id AS b, type(r) AS type, r.origin AS origin, r.strength AS strength,
  r.createdAt AS createdAt, r.updatedAt AS updatedAt
