// How many memories one store holds (through the index on the store): what a
// store's first page of term statistics is scaled to while the rest is read.
// params: $store
// returns: count
MATCH (m:Memory)
WHERE m.store = $store
RETURN count(m) AS count
