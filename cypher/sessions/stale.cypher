// Purpose: sessions of a scope whose index is missing or stale (turns added since), oldest first.
// Params: $scope_id (string), $limit (int)
// Returns: id (string)
MATCH (s:Session)
WHERE s.scope_id = $scope_id AND s.indexed_at IS NULL
RETURN s.id AS id
ORDER BY s.created_at
LIMIT $limit
