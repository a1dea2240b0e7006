// A store's reflections, newest first: the Browser guide's reflect slide finds the newest one by it (without it, it
// read every Reflection of every store).
// params: none
// returns: none
CREATE INDEX reflection_store_started IF NOT EXISTS FOR (r:Reflection) ON (r.store, r.startedAt)
