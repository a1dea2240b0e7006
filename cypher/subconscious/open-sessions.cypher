// Open sessions in scope, with what the session sweep needs: idle ones time
// out, TASK ones get their break check armed. Read-only.
// params: $stores, $limit
// returns: id, instanceId, mode, modeSince, lastActiveAt
MATCH (s:Session)
WHERE s.openInstance IS NOT NULL AND ($stores IS NULL OR s.store IN $stores)
RETURN s.id AS id, s.instanceId AS instanceId, s.mode AS mode, s.modeSince AS modeSince, s.lastActiveAt AS lastActiveAt
ORDER BY s.lastActiveAt
LIMIT $limit
