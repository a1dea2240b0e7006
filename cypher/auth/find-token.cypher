// One API token by its lookup prefix, with its hash, for verification.
// params: $id
// returns: token
MATCH (t:ApiToken {id: $id})
RETURN t {.*} AS token
