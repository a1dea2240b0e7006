// Waits until the import's temporary constraint's index is online (relationships use it).
// params: none
// returns: none
CALL db.awaitIndex('cold_import_key', 300)
