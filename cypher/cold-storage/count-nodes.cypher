// How many nodes the database holds (import restores into an empty one).
// params: none
// returns: count
MATCH (n)
RETURN count(n) AS count
