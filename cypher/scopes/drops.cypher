// Purpose: the scope drops not undone and not purged (of one scope, or of every scope).
// Params: $scope_id (string or null)
// Returns: id (string), scope_id (string), at (datetime), before (string, JSON)
MATCH (o:Operation {kind: 'scope_drop'})
WHERE o.undone_at IS NULL AND o.purged_at IS NULL
  AND ($scope_id IS NULL OR o.scope_id = $scope_id)
RETURN o.id AS id, o.scope_id AS scope_id, o.at AS at, o.before AS before
ORDER BY o.at, o.id
