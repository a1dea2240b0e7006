// An instance's notifications in arrival order, after a given notification
// (by its id; an unknown or empty id starts from the beginning).
// params: $instanceId, $after, $limit
// returns: notification
OPTIONAL MATCH (a:Notification {id: $after})
WITH coalesce(a.cursor, '') AS since
MATCH (n:Notification {instanceId: $instanceId})
WHERE n.cursor > since
RETURN n {.*} AS notification
ORDER BY n.cursor
LIMIT $limit
