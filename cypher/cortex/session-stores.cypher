// The store of each of these sessions that exists (one read for a batch's
// sessions, however many it names).
// params: $ids
// returns: id, store
UNWIND $ids AS id
MATCH (s:Session {id: id})
RETURN s.id AS id, s.store AS store
