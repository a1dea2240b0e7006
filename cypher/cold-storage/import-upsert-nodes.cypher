// Applies a batch of a delta's nodes: each replaces the node with its key (or
// is created), labels and properties whole, and loses its outgoing
// relationships, which the delta then restores.
// params: $rows
// returns: count
UNWIND $rows AS row
MERGE (n:ColdImport {coldImportKey: row.ref})
WITH n, row
CALL (n) {
  MATCH (n)-[r]->()
  DELETE r
}
REMOVE n:$(labels(n))
SET n = row.props
SET n.coldImportKey = row.ref
SET n:ColdImport, n:$(row.labels)
RETURN count(n) AS count
