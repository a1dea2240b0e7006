// All the outgoing relationships (both ends in scope) of the nodes a delta
// holds (changedAt at or after $since): a delta replaces a changed node's
// outgoing relationships whole. Read-only.
// params: $stores, $since
// returns: type, props, startElementId, startLabels, startId, endElementId, endLabels, endId
MATCH (a)-[r]->(b)
WHERE a.changedAt >= $since AND ($stores IS NULL OR (a.store IN $stores AND b.store IN $stores))
RETURN type(r) AS type, properties(r) AS props,
       elementId(a) AS startElementId, labels(a) AS startLabels, a.id AS startId,
       elementId(b) AS endElementId, labels(b) AS endLabels, b.id AS endId
