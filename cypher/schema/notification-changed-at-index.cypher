// Cold storage's deltas find the Notification nodes changed since the last export by their stamp.
// params: none
// returns: none
CREATE INDEX notification_changed_at IF NOT EXISTS FOR (n:Notification) ON (n.changedAt)
