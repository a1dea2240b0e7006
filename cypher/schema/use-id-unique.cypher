// Uses are keyed by their id: markUsed MERGEs on it, reportOutcome finds it by it.
// params: none
// returns: none
CREATE CONSTRAINT use_id_unique IF NOT EXISTS FOR (u:Use) REQUIRE u.id IS UNIQUE
