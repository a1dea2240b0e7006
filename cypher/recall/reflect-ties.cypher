// For each reflect candidate: the memories it is weakly tied to (an
// association below $weakBelow), its near-duplicates (a MECHANICAL THEMATIC
// link of $duplicateStrength or more, neither of the two consolidated into
// another memory yet) and the ids of everything it is linked to. Read-only.
// params: $ids, $weakBelow, $duplicateStrength
// returns: id, weak, duplicates, linked
UNWIND $ids AS id
MATCH (m:Memory {id: id})
CALL {
  WITH m
  OPTIONAL MATCH (m)-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-(o:Memory)
  RETURN
    collect(CASE WHEN r.strength < $weakBelow
      THEN {type: type(r), strength: r.strength, memory: o {.*, embedding: null}} END) AS weak,
    collect(CASE WHEN type(r) = 'THEMATIC' AND r.origin = 'MECHANICAL' AND r.strength >= $duplicateStrength
                   AND NOT EXISTS { (:Memory)-[:CONSOLIDATED_FROM]->(o) }
                   AND NOT EXISTS { (:Memory)-[:CONSOLIDATED_FROM]->(m) }
                 THEN o {.*, embedding: null} END) AS duplicates,
    collect(DISTINCT o.id) AS linked
}
RETURN m.id AS id, weak, duplicates, linked
