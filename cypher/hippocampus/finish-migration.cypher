// Marks a one-time data migration finished.
// params: $id, $now
// returns: id
MERGE (x:Migration {id: $id})
  ON CREATE SET x.finishedAt = datetime({epochMillis: $now}), x.changedAt = timestamp()
RETURN x.id AS id
