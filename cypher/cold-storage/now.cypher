// Neo4j's clock in ms: the clock changedAt stamps are read from (timestamp()).
// params: none
// returns: now
RETURN timestamp() AS now
