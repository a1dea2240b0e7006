// The store of each of these sessions that exists, and the instance it is open
// for (null once ended): one read for a batch's sessions, however many it names.
// params: $ids
// returns: id, store, openInstance
UNWIND $ids AS id
MATCH (s:Session {id: id})
RETURN s.id AS id, s.store AS store, s.openInstance AS openInstance
