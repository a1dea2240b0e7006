// Removes the import's temporary label and reference from a batch of nodes.
// params: $limit
// returns: count
MATCH (n:ColdImport)
WITH n LIMIT $limit
REMOVE n:ColdImport, n.coldImportRef
RETURN count(n) AS count
