// The last verified export of a scope ('*' or its stores joined by ','): the
// file the next delta follows. Kept outside every export.
// params: $scope
// returns: path, sha256, until
MATCH (h:ColdStorageHead {scope: $scope})
RETURN h.path AS path, h.sha256 AS sha256, h.until AS until
