// Purpose: find a memory by its exact title within a scope.
// Params: $scope_id (string), $titles (list of strings)
// Returns: entry (map, no embedding)
MATCH (e:Entry {scope_id: $scope_id})
WHERE e.title IN $titles
RETURN e {.*, embedding: null, context_embedding: null} AS entry
