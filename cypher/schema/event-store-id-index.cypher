// The events feed pages a store by id (ids sort by time).
// params: none
// returns: none
CREATE INDEX event_store_id IF NOT EXISTS FOR (e:Event) ON (e.store, e.id)
