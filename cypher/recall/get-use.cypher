// One use by id.
// params: $id
// returns: use
MATCH (u:Use {id: $id})
RETURN u {.*} AS use
