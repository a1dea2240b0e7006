// Reads one audit event by id (used to recognise a replayed command).
// params: $id
// returns: event
MATCH (e:Event {id: $id})
RETURN e {.*} AS event
