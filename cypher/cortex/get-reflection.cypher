// One reflection with the answers given so far (oldest first).
// params: $id
// returns: reflection, answers
MATCH (r:Reflection {id: $id})
OPTIONAL MATCH (a:Event)-[:ANSWERS]->(r)
WITH r, a ORDER BY a.at, a.id
RETURN r {.*} AS reflection, [x IN collect(a) | x {.*}] AS answers
