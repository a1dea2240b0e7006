// Session ids are unique (a retried startSession MERGEs on its id).
// params: none
// returns: none
CREATE CONSTRAINT session_id_unique IF NOT EXISTS FOR (s:Session) REQUIRE s.id IS UNIQUE
