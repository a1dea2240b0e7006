// Drops the import's temporary constraint (and the index of older versions).
// params: none
// returns: none
DROP CONSTRAINT cold_import_key IF EXISTS
