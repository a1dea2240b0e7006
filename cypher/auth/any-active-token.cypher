// Whether any token that is not revoked exists (decides `auth: auto` once, at start).
// params: none
// returns: exists
OPTIONAL MATCH (t:ApiToken {revoked: false})
WITH t LIMIT 1
RETURN t IS NOT NULL AS exists
