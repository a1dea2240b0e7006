// Which memories of one store had an embedding attached (or given up on) at
// or after $since, and when (index memory_store_embedded): what Recall's
// in-process copy checks for news. Ids and times only: the copy then reads
// the vectors it lacks (vectors-of.cypher), so a catch-up costs what is new,
// not everything in its look-back window. At most $limit rows.
// params: $store, $since, $limit
// returns: id, embeddedAt
MATCH (m:Memory)
WHERE m.store = $store AND m.embeddedAt >= datetime({epochMillis: $since})
RETURN m.id AS id, m.embeddedAt.epochMillis AS embeddedAt
LIMIT $limit
