// Forgetting scrubs the payloads of a memory's events by memoryId.
// params: none
// returns: none
CREATE INDEX event_memory_id IF NOT EXISTS FOR (e:Event) ON (e.memoryId)
