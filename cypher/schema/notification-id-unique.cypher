// Notification ids are deterministic: a retried job records its notification once.
// params: none
// returns: none
CREATE CONSTRAINT notification_id_unique IF NOT EXISTS FOR (n:Notification) REQUIRE n.id IS UNIQUE
