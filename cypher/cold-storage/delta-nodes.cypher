// Every node in scope whose change stamp (changedAt, set by every statement
// that writes it or one of its outgoing relationships) is at or after $since,
// for a cold-storage delta and its verification. Each kind of node the service
// writes is looked up by its label (the many by their changedAt index, the few
// by a label scan), never by a scan of the whole graph; the stamp test fails
// on a statement creating a node whose label is not listed here. Read-only.
// params: $stores, $since
// returns: elementId, labels, props
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
WITH n
WHERE $stores IS NULL OR n.store IN $stores
RETURN elementId(n) AS elementId, labels(n) AS labels, properties(n) AS props
