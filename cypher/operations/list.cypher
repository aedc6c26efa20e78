// Purpose: a page of the newest operations of a scope, newest first, ties by id.
// Params: $scope_id (string), $skip (int), $limit (int)
// Returns: op (map, without the before-state)
MATCH (o:Operation {scope_id: $scope_id})
RETURN o {.*, before: null} AS op
ORDER BY o.at DESC, o.id
SKIP $skip LIMIT $limit
