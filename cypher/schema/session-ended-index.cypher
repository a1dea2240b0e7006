// The session sweep looks for recently ended sessions that still lack their audit.
// params: none
// returns: none
CREATE INDEX session_ended IF NOT EXISTS FOR (s:Session) ON (s.endedAt)
