// Moves the usefulness of the memories of one reported outcome (see
// usefulness.ts: u + up·(1−u) − down·(1+u)), once per outcome event: each
// memory remembers the last event applied, so a replay changes nothing.
// Salience's own properties only.
// params: $eventId, $store, $ids, $up, $down
// returns: id, usefulness
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.store = $store AND coalesce(m.usefulnessEventId, '') <> $eventId
WITH m, coalesce(m.usefulness, 0.0) AS u
SET m.usefulness = u + $up * (1 - u) - $down * (1 + u),
    m.usefulnessEventId = $eventId,
    m.changedAt = timestamp()
RETURN m.id AS id, m.usefulness AS usefulness
