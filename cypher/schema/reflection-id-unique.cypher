// Reflection ids are unique (opening one MERGEs on its id).
// params: none
// returns: none
CREATE CONSTRAINT reflection_id_unique IF NOT EXISTS FOR (r:Reflection) REQUIRE r.id IS UNIQUE
