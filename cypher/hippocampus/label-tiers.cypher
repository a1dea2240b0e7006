// Gives up to $limit memories stored before tier labels existed the label of
// their tier (IDENTITY_CORE, ACTIVE_CONTEXT, LONG_TERM, ARCHIVE), which Neo4j
// Browser colours them by. Run until it labels none.
// params: $limit
// returns: labelled
MATCH (m:Memory)
WHERE NOT (m:IDENTITY_CORE OR m:ACTIVE_CONTEXT OR m:LONG_TERM OR m:ARCHIVE)
WITH m LIMIT $limit
SET m:$(m.tier), m.changedAt = timestamp()
RETURN count(m) AS labelled
