// Removes one import's temporary label and key (they start with its $mark) from a batch of its nodes.
// params: $mark, $limit
// returns: count
MATCH (n:ColdImport)
WHERE n.coldImportKey STARTS WITH $mark
WITH n LIMIT $limit
REMOVE n:ColdImport, n.coldImportKey
RETURN count(n) AS count
