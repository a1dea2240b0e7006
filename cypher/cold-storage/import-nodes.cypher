// Restores a batch of nodes with their labels and properties, marked with a
// temporary label and reference until the import has linked them.
// params: $rows
// returns: count
UNWIND $rows AS row
CREATE (n:ColdImport)
SET n = row.props
SET n.coldImportKey = row.ref
SET n:$(row.labels)
RETURN count(n) AS count
