// Near-duplicate pairs by Synapse's THEMATIC measure (a MECHANICAL link's
// strength grows with the text overlap), strongest first: one store, neither
// memory consolidated into another yet, neither IDENTITY_CORE, and not a
// consolidation of one another. Read-only: Synapse owns the links.
// params: $minStrength, $stores, $limit
// returns: store, a, b, strength
MATCH (a:Memory)-[r:THEMATIC]-(b:Memory)
WHERE r.origin = 'MECHANICAL' AND r.strength >= $minStrength AND a.id < b.id AND a.store = b.store
  AND ($stores IS NULL OR a.store IN $stores)
  AND a.tier <> 'IDENTITY_CORE' AND b.tier <> 'IDENTITY_CORE'
  AND NOT EXISTS { (:Memory)-[:CONSOLIDATED_FROM]->(a) }
  AND NOT EXISTS { (:Memory)-[:CONSOLIDATED_FROM]->(b) }
  AND NOT EXISTS { (a)-[:CONSOLIDATED_FROM]-(b) }
RETURN a.store AS store, a.id AS a, b.id AS b, r.strength AS strength
ORDER BY strength DESC, a, b
LIMIT $limit
