// Records a verified export as its scope's last one, unless $expected is set
// and another export moved the head meanwhile (a compaction racing a shutdown).
// params: $scope, $path, $sha256, $until, $expected
// returns: path
MERGE (h:ColdStorageHead {scope: $scope})
WITH h
WHERE $expected IS NULL OR h.sha256 = $expected
SET h.path = $path, h.sha256 = $sha256, h.until = $until
RETURN h.path AS path
