// Purpose: the next sessions (of one scope, or of all) whose vector is not of $model: each is
//   re-indexed from its turns (whose vectors are re-embedded first).
// Params: $scope_id (string or null), $model (string), $skip (list of strings: ids to pass over), $limit (int)
// Returns: id (string), scope_id (string)
MATCH (s:Session)
WHERE ($scope_id IS NULL OR s.scope_id = $scope_id) AND s.embedding IS NOT NULL
  AND coalesce(s.embedding_model, '') <> $model AND NOT s.id IN $skip
RETURN s.id AS id, s.scope_id AS scope_id
ORDER BY s.scope_id, s.id
LIMIT $limit
