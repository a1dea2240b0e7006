// Every node in scope (all of them when $stores is null), with its labels and
// properties, for the cold-storage export and its verification (not the
// ColdStorageHead bookkeeping). Read-only.
// params: $stores
// returns: elementId, labels, props
MATCH (n)
WHERE ($stores IS NULL OR n.store IN $stores) AND NOT n:ColdStorageHead
RETURN elementId(n) AS elementId, labels(n) AS labels, properties(n) AS props
