// Memories stored before $before whose mechanical links were never written
// (their linking was lost with a killed process or thread), oldest first, with
// what linking reads of them. $stores limits it to some stores (null: every store).
// params: $before, $limit, $stores
// returns: id, store, content, tags, people, emotions, occurredAt, sessionId
MATCH (m:Memory)
WHERE m.linkPendingAt < datetime({epochMillis: $before}) AND ($stores IS NULL OR m.store IN $stores)
RETURN m.id AS id, m.store AS store, m.content AS content, m.tags AS tags, m.people AS people, m.emotions AS emotions,
       m.occurredAt.epochMillis AS occurredAt, m.sessionId AS sessionId
ORDER BY m.linkPendingAt
LIMIT $limit
