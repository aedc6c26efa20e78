// Purpose: the newest operations of a scope.
// Params: $scope_id (string), $limit (int)
// Returns: op (map, without the before-state)
MATCH (o:Operation {scope_id: $scope_id})
RETURN o {.*, before: null} AS op
ORDER BY o.at DESC
LIMIT $limit
