// Restores a batch of relationships between nodes restored by this import.
// params: $rows
// returns: count
UNWIND $rows AS row
MATCH (a:ColdImport {coldImportKey: row.start})
MATCH (b:ColdImport {coldImportKey: row.end})
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.props
RETURN count(r) AS count
