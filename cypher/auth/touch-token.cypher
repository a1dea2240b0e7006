// Records when a token was last used (the service does this at most once a minute per token).
// params: $id, $now
// returns: none
MATCH (t:ApiToken {id: $id})
SET t.lastUsedAt = datetime({epochMillis: $now}), t.changedAt = timestamp()
