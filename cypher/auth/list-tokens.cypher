// Every API token, oldest first, without its hash.
// params: none
// returns: token
MATCH (t:ApiToken)
RETURN t {.*, hash: null} AS token
ORDER BY t.createdAt
