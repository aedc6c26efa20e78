// Purpose: the next document chunks (of one scope, or of all) without a vector of $model, with
//   what is embedded for them (heading path, text); those done drop out, so a re-run resumes.
// Params: $scope_id (string or null), $model (string), $skip (list of strings: ids to pass over), $limit (int)
// Returns: id (string), scope_id (string), heading, text
MATCH (c:Chunk)
WHERE ($scope_id IS NULL OR c.scope_id = $scope_id) AND c.text IS NOT NULL
  AND (c.embedding IS NULL OR coalesce(c.embedding_model, '') <> $model)
  AND NOT c.id IN $skip
RETURN c.id AS id, c.scope_id AS scope_id, c.heading AS heading, c.text AS text
ORDER BY c.scope_id, c.id
LIMIT $limit
