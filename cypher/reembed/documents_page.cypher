// Purpose: the next documents (of one scope, or of all) whose vector is not of $model and whose
//   chunks all have vectors of $model now, with those vectors (a document's vector is their
//   normalised mean).
// Params: $scope_id (string or null), $model (string), $skip (list of strings: ids to pass over), $limit (int)
// Returns: id (string), scope_id (string), vectors (list of vectors)
MATCH (d:Document)
WHERE ($scope_id IS NULL OR d.scope_id = $scope_id) AND d.embedding IS NOT NULL
  AND coalesce(d.embedding_model, '') <> $model AND NOT d.id IN $skip
CALL (d) {
  MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
  RETURN collect(c.embedding) AS vectors, count(c) AS n,
         count(CASE WHEN c.embedding_model = $model AND c.embedding IS NOT NULL THEN 1 END) AS ok
}
WITH d, vectors, n, ok
WHERE n > 0 AND ok = n
RETURN d.id AS id, d.scope_id AS scope_id, vectors
ORDER BY d.scope_id, d.id
LIMIT $limit
