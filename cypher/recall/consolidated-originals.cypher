// The originals each of these memories consolidates, by the links only consolidation writes
// (CONSOLIDATED_FROM): recall folds a consolidated memory and its originals by them, never by metadata.
// params: $ids
// returns: id, originals
UNWIND $ids AS id
MATCH (:Memory {id: id})-[:CONSOLIDATED_FROM]->(o:Memory)
RETURN id, collect(o.id) AS originals
