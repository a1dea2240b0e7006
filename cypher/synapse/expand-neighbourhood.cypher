// One breadth-first level of a neighbourhood: for each frontier memory, its
// associations of the given types from either end, at most $perNode, strongest first.
// params: $ids, $types, $perNode
// returns: from, to, type, origin, strength, createdAt, updatedAt
UNWIND $ids AS id
MATCH (u:Memory {id: id})
CALL (u) {
  MATCH (u)-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-(v:Memory)
  WHERE type(r) IN $types
  RETURN r, v
  ORDER BY r.strength DESC, v.id
  LIMIT $perNode
}
RETURN u.id AS from, v.id AS to, type(r) AS type, r.origin AS origin, r.strength AS strength,
  r.createdAt AS createdAt, r.updatedAt AS updatedAt
