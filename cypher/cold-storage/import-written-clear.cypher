// Removes the record that one import ($mark) wrote everything, once its temporary marks are all off.
// params: $mark
// returns: none
MATCH (w:ColdImportWritten {mark: $mark})
DELETE w
