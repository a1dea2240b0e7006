// Cold storage's deltas find the Event nodes changed since the last export by their stamp.
// params: none
// returns: none
CREATE INDEX event_changed_at IF NOT EXISTS FOR (n:Event) ON (n.changedAt)
