// One marker per one-time data migration.
// params: none
// returns: none
CREATE CONSTRAINT migration_id_unique IF NOT EXISTS FOR (x:Migration) REQUIRE x.id IS UNIQUE
