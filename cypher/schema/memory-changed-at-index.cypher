// Cold storage's deltas find the Memory nodes changed since the last export by their stamp.
// params: none
// returns: none
CREATE INDEX memory_changed_at IF NOT EXISTS FOR (n:Memory) ON (n.changedAt)
