// openInstance is set only while a session is open: at most one open session
// per instance, even when two processes start one at the same moment.
// params: none
// returns: none
CREATE CONSTRAINT session_open_instance_unique IF NOT EXISTS FOR (s:Session) REQUIRE s.openInstance IS UNIQUE
