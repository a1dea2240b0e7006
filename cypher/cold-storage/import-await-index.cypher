// Waits until the import's temporary index is online (relationships use it).
// params: none
// returns: none
CALL db.awaitIndex('cold_import_ref', 300)
