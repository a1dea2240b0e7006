// Drops the import's temporary index.
// params: none
// returns: none
DROP INDEX cold_import_ref IF EXISTS
