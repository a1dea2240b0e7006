// Whether a one-time data migration has finished (its marker exists).
// params: $id
// returns: id
MATCH (x:Migration {id: $id})
RETURN x.id AS id
