// Applies a delta's deleted nodes (with their relationships), by key.
// params: $keys
// returns: count
UNWIND $keys AS key
MATCH (n:ColdImport {coldImportKey: key})
DETACH DELETE n
RETURN count(n) AS count
