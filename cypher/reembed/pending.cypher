// Purpose: how many entries, chunks, entities, documents, topics and sessions (of one scope, or
//   of all) have no vector of $model yet: what a re-embed still has to do.
// Params: $scope_id (string or null: every scope), $model (string)
// Returns: entries, chunks, entities, documents, topics, sessions (int each)
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
CALL () {
  MATCH (n:Entity)
  WHERE ($scope_id IS NULL OR n.scope_id = $scope_id) AND n.embedding IS NOT NULL
    AND coalesce(n.embedding_model, '') <> $model AND n.name IS NOT NULL
  RETURN count(n) AS entities
}
CALL () {
  MATCH (d:Document)
  WHERE ($scope_id IS NULL OR d.scope_id = $scope_id) AND d.embedding IS NOT NULL
    AND coalesce(d.embedding_model, '') <> $model
  RETURN count(d) AS documents
}
CALL () {
  MATCH (t:Topic)
  WHERE ($scope_id IS NULL OR t.scope_id = $scope_id) AND t.embedding IS NOT NULL
    AND coalesce(t.embedding_model, '') <> $model
  RETURN count(t) AS topics
}
CALL () {
  MATCH (s:Session)
  WHERE ($scope_id IS NULL OR s.scope_id = $scope_id) AND s.embedding IS NOT NULL
    AND coalesce(s.embedding_model, '') <> $model
  RETURN count(s) AS sessions
}
RETURN entries, chunks, entities, documents, topics, sessions
