// Every node in scope whose change stamp (changedAt, set by every statement
// that writes it or one of its outgoing relationships) is at or after $since,
// for a cold-storage delta and its verification. Read-only.
// params: $stores, $since
// returns: elementId, labels, props
MATCH (n)
WHERE n.changedAt >= $since AND ($stores IS NULL OR n.store IN $stores)
RETURN elementId(n) AS elementId, labels(n) AS labels, properties(n) AS props
