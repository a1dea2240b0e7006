// The marks of the imports whose nodes still carry the temporary label (running, or stopped before they finished),
// and whether each had written everything (it was taking its marks off); a record left with no marked node too.
// params: none
// returns: mark, written
MATCH (n:ColdImport)
WITH DISTINCT split(n.coldImportKey, ':')[0] + ':' AS mark
RETURN mark, EXISTS { MATCH (:ColdImportWritten {mark: mark}) } AS written
UNION
MATCH (w:ColdImportWritten)
RETURN w.mark AS mark, true AS written
