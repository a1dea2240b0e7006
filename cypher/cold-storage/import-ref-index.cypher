// A uniqueness constraint (and its index) for imports: nodes are found by their
// key in the chain (`#id`, or `~elementId` without an id) behind the import's
// own mark, and two nodes with one key are refused rather than mixed up. It
// stays (no node carries the ColdImport label between imports): dropping it
// under an import running beside this one would leave that one without it.
// params: none
// returns: none
CREATE CONSTRAINT cold_import_key IF NOT EXISTS FOR (n:ColdImport) REQUIRE n.coldImportKey IS UNIQUE
