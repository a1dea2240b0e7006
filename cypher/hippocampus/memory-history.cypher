// The newest events about one memory (the caller puts them in time order).
// params: $id, $limit
// returns: event
MATCH (e:Event)-[:ABOUT]->(:Memory {id: $id})
RETURN e {.*} AS event
ORDER BY e.id DESC
LIMIT $limit
