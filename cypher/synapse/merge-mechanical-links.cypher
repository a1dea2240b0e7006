// Creates planned mechanical links, one relationship per pair and type, stored
// from the lower id to the higher (lo → hi) so concurrent MERGEs cannot make
// two; every read is undirected. A link that exists already, mechanical or the
// mind's, is left as it is. Returns only the links this call created.
// params: $links, $now, $changeId
// returns: a, b, type, origin, strength
UNWIND $links AS link
MATCH (lo:Memory {id: link.lo})
MATCH (hi:Memory {id: link.hi})
MERGE (lo)-[r:$(link.type)]->(hi)
  ON CREATE SET
    r.strength = toFloat(link.strength),
    r.origin = 'MECHANICAL',
    r.createdAt = datetime({epochMillis: $now}),
    r.updatedAt = datetime({epochMillis: $now}),
    r.changeId = $changeId,
    lo.changedAt = timestamp()
WITH link, r WHERE r.changeId = $changeId
RETURN link.lo AS a, link.hi AS b, link.type AS type, r.origin AS origin, r.strength AS strength
