// Purpose: every learner cursor of a scope (learn status).
// Params: $scope_id (string)
// Returns: cursor (map)
MATCH (c:LearnerCursor {scope_id: $scope_id})
WHERE c.id STARTS WITH 'learner:'
RETURN c {.*} AS cursor
ORDER BY c.source, c.id
