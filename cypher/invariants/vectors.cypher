// Purpose: stored vectors that break the one-encoding rule: a node whose embedding has no model
//   id, another model's id, or another size than the configured model's (any label: entries,
//   turns, sessions, chunks, entities, topics).
// Params: $scope_id (string or null: every scope), $model (string), $dimensions (int), $limit (int)
// Returns: label (string), id (string), scope_id (string or null), embedding_model (string or null), dimensions (int)
MATCH (n)
WHERE n.embedding IS NOT NULL AND ($scope_id IS NULL OR n.scope_id = $scope_id)
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model
       OR size(n.embedding) <> $dimensions)
RETURN labels(n)[0] AS label, n.id AS id, n.scope_id AS scope_id,
       n.embedding_model AS embedding_model, size(n.embedding) AS dimensions
ORDER BY label, id
LIMIT $limit
