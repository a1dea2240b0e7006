// Revokes a token for good (kept, flagged, so `token list` still shows it).
// params: $id, $now
// returns: token
MATCH (t:ApiToken {id: $id})
SET t.revoked = true, t.revokedAt = coalesce(t.revokedAt, datetime({epochMillis: $now})),
  t.changedAt = timestamp()
RETURN t {.*, hash: null} AS token
