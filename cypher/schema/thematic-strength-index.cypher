// Consolidation reads strong THEMATIC pairs (near-duplicates) by strength.
// params: none
// returns: none
CREATE INDEX thematic_strength IF NOT EXISTS FOR ()-[r:THEMATIC]-() ON (r.strength)
