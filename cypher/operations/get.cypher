// Purpose: one operation with its before-state.
// Params: $id (string), $scope_id (string or null)
// Returns: op (map)
MATCH (o:Operation {id: $id})
WHERE $scope_id IS NULL OR o.scope_id = $scope_id
RETURN properties(o) AS op
