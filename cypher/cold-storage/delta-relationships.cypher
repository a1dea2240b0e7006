// All the outgoing relationships (both ends in scope) of the nodes a delta
// holds (changedAt at or after $since, found as delta-nodes finds them): a
// delta replaces a changed node's outgoing relationships whole. Read-only.
// params: $stores, $since
// returns: type, props, startElementId, startLabels, startId, startChangedAt, endElementId, endLabels, endId,
//   endChangedAt
CALL () {
  MATCH (n:Memory) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:Event) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:Recall) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:Use) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:Notification) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:Session) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:Decision) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:Reflection) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:SweepCursor) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:Migration) WHERE n.changedAt >= $since RETURN n
  UNION
  MATCH (n:ApiToken) WHERE n.changedAt >= $since RETURN n
}
WITH n AS a
MATCH (a)-[r]->(b)
WHERE $stores IS NULL OR (a.store IN $stores AND b.store IN $stores)
RETURN type(r) AS type, properties(r) AS props,
       elementId(a) AS startElementId, labels(a) AS startLabels, a.id AS startId, a.changedAt AS startChangedAt,
       elementId(b) AS endElementId, labels(b) AS endLabels, b.id AS endId, b.changedAt AS endChangedAt
