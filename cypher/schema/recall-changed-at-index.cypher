// Cold storage's deltas find the Recall nodes changed since the last export by their stamp.
// params: none
// returns: none
CREATE INDEX recall_changed_at IF NOT EXISTS FOR (n:Recall) ON (n.changedAt)
