// One association by its canonical ends (lo → hi) and type; no row when there is none.
// params: $lo, $hi, $type
// returns: origin, strength, createdAt, updatedAt, changeId
MATCH (:Memory {id: $lo})-[r:$($type)]->(:Memory {id: $hi})
RETURN r.origin AS origin, r.strength AS strength, r.createdAt AS createdAt, r.updatedAt AS updatedAt,
  r.changeId AS changeId
