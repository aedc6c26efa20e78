// Purpose: one link suggestion of a scope.
// Params: $id (string), $scope_id (string)
// Returns: suggestion (map)
MATCH (s:LinkSuggestion {id: $id})
WHERE s.scope_id = $scope_id
RETURN properties(s) AS suggestion
