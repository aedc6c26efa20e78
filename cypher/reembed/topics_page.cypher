// Purpose: the next topics (of one scope, or of all) whose centroid is not of $model and whose
//   members (entries, documents) all have vectors of $model now, with those vectors (the
//   centroid is their normalised mean; membership stays as built).
// Params: $scope_id (string or null), $model (string), $skip (list of strings: ids to pass over), $limit (int)
// Returns: id (string), scope_id (string), vectors (list of vectors)
MATCH (t:Topic)
WHERE ($scope_id IS NULL OR t.scope_id = $scope_id) AND t.embedding IS NOT NULL
  AND coalesce(t.embedding_model, '') <> $model AND NOT t.id IN $skip
CALL (t) {
  MATCH (e)-[:IN_TOPIC]->(t)
  WHERE e:Entry OR e:Document
  RETURN collect(e.embedding) AS vectors, count(e) AS n,
         count(CASE WHEN e.embedding_model = $model AND e.embedding IS NOT NULL THEN 1 END) AS ok
}
WITH t, vectors, n, ok
WHERE n > 0 AND ok = n
RETURN t.id AS id, t.scope_id AS scope_id, vectors
ORDER BY t.scope_id, t.id
LIMIT $limit
