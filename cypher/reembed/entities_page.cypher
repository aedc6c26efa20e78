// Purpose: the next entities (of one scope, or of all) whose name vector is not of $model (only
//   entities that have one: those found in documents), with the name that is embedded.
// Params: $scope_id (string or null), $model (string), $skip (list of strings: ids to pass over), $limit (int)
// Returns: id (string), scope_id (string), name (string)
MATCH (n:Entity)
WHERE ($scope_id IS NULL OR n.scope_id = $scope_id) AND n.embedding IS NOT NULL
  AND coalesce(n.embedding_model, '') <> $model AND n.name IS NOT NULL
  AND NOT n.id IN $skip
RETURN n.id AS id, n.scope_id AS scope_id, n.name AS name
ORDER BY n.scope_id, n.id
LIMIT $limit
