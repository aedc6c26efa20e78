// Purpose: benchmarks: the brute-force baseline Graphiti and mem0 shipped - scan every entry of a
//   scope and rank it by vector.similarity.cosine, without the vector index.
// Params: $vector (list of floats), $scope_id (string), $k (int)
// Returns: id, score
MATCH (e:Entry)
WHERE e.scope_id = $scope_id AND e.embedding IS NOT NULL
WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $k
RETURN e.id AS id, score
