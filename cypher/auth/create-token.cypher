// Keeps a new API token: its lookup prefix, the SHA-256 of the whole token
// (the token itself is never stored), what it may reach and when it was made.
// params: $id, $hash, $scope, $stores, $instanceId, $label, $now
// returns: token
CREATE (t:ApiToken {
  id: $id,
  hash: $hash,
  scope: $scope,
  stores: $stores,
  instanceId: $instanceId,
  label: $label,
  createdAt: datetime({epochMillis: $now}),
  revoked: false,
  changedAt: timestamp()
})
RETURN t {.*, hash: null} AS token
