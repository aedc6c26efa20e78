// Purpose: delete up to $limit access events of a scope older than $before (with their
//   ACCESSED edges); the accessed items are untouched.
// Params: $scope_id (string), $before (datetime), $limit (int)
// Returns: deleted (int)
MATCH (ev:AccessEvent)
WHERE ev.scope_id = $scope_id AND ev.at < $before
WITH ev
LIMIT $limit
DETACH DELETE ev
RETURN count(*) AS deleted
