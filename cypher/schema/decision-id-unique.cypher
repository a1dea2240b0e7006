// Decisions are MERGEd on their id (a replayed transaction logs one decision).
// params: none
// returns: none
CREATE CONSTRAINT decision_id_unique IF NOT EXISTS FOR (d:Decision) REQUIRE d.id IS UNIQUE
