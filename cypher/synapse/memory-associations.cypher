// The associations of one memory, from either end, seen from it: strongest first.
// params: $id, $types, $minStrength, $limit
// returns: self, other, type, origin, strength, createdAt, updatedAt, changeId
MATCH (m:Memory {id: $id})-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-(o:Memory)
WHERE type(r) IN $types AND r.strength >= $minStrength
RETURN m.id AS self, o.id AS other, type(r) AS type, r.origin AS origin, r.strength AS strength,
  r.createdAt AS createdAt, r.updatedAt AS updatedAt, r.changeId AS changeId
ORDER BY strength DESC, other, type
LIMIT $limit
