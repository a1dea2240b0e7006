// Cold storage's deltas find the Use nodes changed since the last export by their stamp.
// params: none
// returns: none
CREATE INDEX use_changed_at IF NOT EXISTS FOR (n:Use) ON (n.changedAt)
