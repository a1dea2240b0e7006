// Synapse's TEMPORAL rule finds the memories of a session close in time.
// params: none
// returns: none
CREATE INDEX memory_session_time IF NOT EXISTS FOR (m:Memory) ON (m.sessionId, m.occurredAt)
