// Moves the usefulness of the memories of one reported outcome (see
// usefulness.ts: u + up·(1−u) − down·(1+u)), once per outcome event: each
// memory keeps the ids of the last 32 events applied to it, so a replay changes
// nothing even after later events committed (a driver retries for 30 s at most;
// 32 outcomes for one memory within that time is far beyond a mind's pace).
// The single id kept before the list counts as applied too.
// Salience's own properties only.
// params: $eventId, $store, $ids, $up, $down
// returns: id, usefulness
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.store = $store
WITH m, coalesce(m.usefulnessEventIds, [e IN [m.usefulnessEventId] WHERE e IS NOT NULL]) AS applied
WHERE NOT $eventId IN applied
WITH m, applied, coalesce(m.usefulness, 0.0) AS u
SET m.usefulness = u + $up * (1 - u) - $down * (1 + u),
    m.usefulnessEventIds = (applied + $eventId)[-32..],
    m.usefulnessEventId = null,
    m.changedAt = timestamp()
RETURN m.id AS id, m.usefulness AS usefulness
