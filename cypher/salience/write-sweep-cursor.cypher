// Records a sweep's progress after a finished batch (or its start and end).
// params: $key, $store, $now, $after, $scanned, $updated, $promoted, $demoted, $batches, $done, $at
// returns: key
MERGE (c:SweepCursor {key: $key})
SET c.store = $store, c.now = datetime({epochMillis: $now}), c.after = $after, c.scanned = $scanned,
    c.updated = $updated, c.promoted = $promoted, c.demoted = $demoted, c.batches = $batches,
    c.done = $done, c.updatedAt = datetime({epochMillis: $at}), c.changedAt = timestamp()
RETURN c.key AS key
