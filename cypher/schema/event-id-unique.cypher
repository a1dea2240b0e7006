// Audit events are keyed by a client-generated id, so a replayed transaction cannot record one twice.
// params: none
// returns: none
CREATE CONSTRAINT event_id_unique IF NOT EXISTS FOR (e:Event) REQUIRE e.id IS UNIQUE
