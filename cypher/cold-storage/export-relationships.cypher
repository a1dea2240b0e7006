// Every relationship in scope (both ends in scope), with what names its ends
// across databases (labels and id). Read-only.
// params: $stores
// returns: type, props, startElementId, startLabels, startId, startChangedAt, endElementId, endLabels, endId,
//   endChangedAt
MATCH (a)-[r]->(b)
WHERE $stores IS NULL OR (a.store IN $stores AND b.store IN $stores)
RETURN type(r) AS type, properties(r) AS props,
       elementId(a) AS startElementId, labels(a) AS startLabels, a.id AS startId, a.changedAt AS startChangedAt,
       elementId(b) AS endElementId, labels(b) AS endLabels, b.id AS endId, b.changedAt AS endChangedAt
