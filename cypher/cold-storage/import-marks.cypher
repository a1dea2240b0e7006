// The marks of the imports whose nodes still carry the temporary label: running, or stopped before they finished.
// params: none
// returns: mark
MATCH (n:ColdImport)
RETURN DISTINCT split(n.coldImportKey, ':')[0] + ':' AS mark
