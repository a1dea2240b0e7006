// The first two hops of spreading activation in one round trip: for each seed
// of the store and for each memory its $perNode strongest links of the
// followed types reach, its fan (how many such links it has) and its $perNode
// strongest such links, from either end, as [to, type, strength]. Ties in
// strength go by the other end's id, so the memories reached here are exactly
// the ones whose links come back.
// params: $store, $ids, $types, $perNode
// returns: from, fan, edges
UNWIND $ids AS id
MATCH (s:Memory {id: id})
WHERE s.store = $store
CALL (s) {
  MATCH (s)-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-(v)
  WHERE type(r) IN $types
  WITH r, v ORDER BY r.strength DESC, v.id
  LIMIT $perNode
  RETURN collect(v) AS near
}
WITH collect(s) AS seeds, collect(near) AS nears
UNWIND seeds + reduce(all = [], near IN nears | all + near) AS u
WITH DISTINCT u
CALL (u) {
  MATCH (u)-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-(v)
  WHERE type(r) IN $types
  WITH r, v ORDER BY r.strength DESC, v.id
  WITH collect([v, type(r), r.strength]) AS links
  RETURN size(links) AS fan, [e IN links[0..$perNode] | [e[0].id, e[1], e[2]]] AS edges
}
RETURN u.id AS from, fan, edges
