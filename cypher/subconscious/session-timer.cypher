// What a break check needs to know about a session: whether it is still open,
// its mode and since when, and when it was last active. Read-only.
// params: $id
// returns: id, instanceId, store, mode, modeSince, task, open, lastActiveAt
MATCH (s:Session {id: $id})
RETURN s.id AS id, s.instanceId AS instanceId, s.store AS store, s.mode AS mode,
       s.modeSince AS modeSince, s.task AS task, s.openInstance IS NOT NULL AS open,
       s.lastActiveAt AS lastActiveAt
