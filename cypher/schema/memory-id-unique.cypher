// Memory ids are unique across all stores (MERGE on it makes stores idempotent).
// params: none
// returns: none
CREATE CONSTRAINT memory_id_unique IF NOT EXISTS FOR (m:Memory) REQUIRE m.id IS UNIQUE
