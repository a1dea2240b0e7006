// A temporary index for an import: relationships find their ends by the
// export's node reference.
// params: none
// returns: none
CREATE INDEX cold_import_ref IF NOT EXISTS FOR (n:ColdImport) ON (n.coldImportRef)
