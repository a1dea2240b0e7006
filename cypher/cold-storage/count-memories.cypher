// How many of these memories exist (a delta's deleted ones must not).
// params: $ids
// returns: count
MATCH (m:Memory)
WHERE m.id IN $ids
RETURN count(m) AS count
