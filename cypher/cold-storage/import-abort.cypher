// Deletes a batch of the nodes one import wrote (they carry its $mark), with their relationships: what a failed or
// killed import wrote goes, and the database is as it was before it.
// params: $mark, $limit
// returns: count
MATCH (n:ColdImport)
WHERE n.coldImportKey STARTS WITH $mark
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(n) AS count
