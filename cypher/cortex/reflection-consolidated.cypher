// Which of these memories another memory consolidates already: a reflection no
// longer offers to consolidate them (Hippocampus would refuse it).
// params: $ids
// returns: id
MATCH (o:Memory)
WHERE o.id IN $ids AND EXISTS { MATCH (:Memory)-[:CONSOLIDATED_FROM]->(o) }
RETURN o.id AS id
