// One hop of spreading activation: for each frontier memory of the store, its
// fan (how many associations of the followed types it has) and its $perNode
// strongest such associations, from either end, as [to, type, strength].
// Equal strengths go in element-id order: as deterministic as the memory id,
// without reading every neighbour's id (measured at 100k, 32 memories a hop:
// Neo4j CPU 2.2 → 1.6 ms, p50 2.8 → 1.9 ms).
// params: $store, $ids, $types, $perNode
// returns: from, fan, edges
UNWIND $ids AS id
MATCH (u:Memory {id: id})
WHERE u.store = $store
CALL (u) {
  MATCH (u)-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-(v)
  WHERE type(r) IN $types
  WITH r, v ORDER BY r.strength DESC, elementId(v)
  WITH collect([v, type(r), r.strength]) AS links
  RETURN size(links) AS fan, [e IN links[0..$perNode] | [e[0].id, e[1], e[2]]] AS edges
}
RETURN u.id AS from, fan, edges
