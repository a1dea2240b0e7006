// Records that one import wrote everything (its $mark) before it takes its temporary marks off: an import stopped
// while doing that left a whole graph, part of it still marked, which the next import finishes instead of deleting.
// params: $mark
// returns: none
MERGE (:ColdImportWritten {mark: $mark})
