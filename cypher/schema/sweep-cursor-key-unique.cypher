// One decay-sweep cursor per scope ('*' or a store): MERGE on the key.
// params: none
// returns: none
CREATE CONSTRAINT sweep_cursor_key_unique IF NOT EXISTS FOR (c:SweepCursor) REQUIRE c.key IS UNIQUE
