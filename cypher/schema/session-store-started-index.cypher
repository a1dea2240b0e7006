// sessions(store) and resume list a store's sessions newest first.
// params: none
// returns: none
CREATE INDEX session_store_started IF NOT EXISTS FOR (s:Session) ON (s.store, s.startedAt)
