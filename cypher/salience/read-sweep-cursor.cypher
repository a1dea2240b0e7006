// Where a sweep of one scope ('*' or a store) got to, so a crashed sweep
// resumes after its last finished batch.
// params: $key
// returns: cursor
MATCH (c:SweepCursor {key: $key})
RETURN c {.*} AS cursor
