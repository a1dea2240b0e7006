// notifications(instanceId, after) pages an instance's notifications by arrival.
// params: none
// returns: none
CREATE INDEX notification_instance_cursor IF NOT EXISTS FOR (n:Notification) ON (n.instanceId, n.cursor)
