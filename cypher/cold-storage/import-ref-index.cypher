// A temporary uniqueness constraint (and its index) for an import: nodes are
// found by their key in the chain (`#id`, or `~elementId` without an id), and
// two nodes with one key would be refused rather than mixed up.
// params: none
// returns: none
CREATE CONSTRAINT cold_import_key IF NOT EXISTS FOR (n:ColdImport) REQUIRE n.coldImportRef IS UNIQUE
