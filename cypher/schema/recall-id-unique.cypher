// Recalls are keyed by their id: recording one MERGEs on it and markUsed finds
// it by it. Without this constraint each of those scanned every Recall node
// (measured after 16k recalls: recording one cost Neo4j 8.2 ms of CPU; 1.5 with it).
// params: none
// returns: none
CREATE CONSTRAINT recall_id_unique IF NOT EXISTS FOR (r:Recall) REQUIRE r.id IS UNIQUE
