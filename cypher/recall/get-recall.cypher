// One recall by id.
// params: $id
// returns: recall
MATCH (r:Recall {id: $id})
RETURN r {.*} AS recall
