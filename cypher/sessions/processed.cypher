// Purpose: the ids of a scope's sessions that were reflected on, newest first.
// Params: $scope_id (string)
// Returns: session_id (string), processed_at (datetime)
MATCH (s:Session {scope_id: $scope_id})
WHERE s.processed_at IS NOT NULL
RETURN s.id AS session_id, s.processed_at AS processed_at
ORDER BY s.processed_at DESC
