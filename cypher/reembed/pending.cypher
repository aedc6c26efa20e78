// Purpose: how many entries and chunks (of one scope, or of all) have no vector of $model yet:
//   what a re-embed still has to do.
// Params: $scope_id (string or null: every scope), $model (string)
// Returns: entries (int), chunks (int)
CALL () {
  MATCH (e:Entry)
  WHERE ($scope_id IS NULL OR e.scope_id = $scope_id) AND e.content IS NOT NULL
    AND (e.embedding IS NULL OR coalesce(e.embedding_model, '') <> $model)
  RETURN count(e) AS entries
}
CALL () {
  MATCH (c:Chunk)
  WHERE ($scope_id IS NULL OR c.scope_id = $scope_id) AND c.text IS NOT NULL
    AND (c.embedding IS NULL OR coalesce(c.embedding_model, '') <> $model)
  RETURN count(c) AS chunks
}
RETURN entries, chunks
