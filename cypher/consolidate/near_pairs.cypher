// Purpose: near-duplicate pairs among the newest $limit current entries of a scope, through the
//   native vector index (k nearest per entry), at or above a cosine similarity.
// Params: $scope_id (string), $limit (int), $k (int), $similarity (float)
// Returns: a (string), b (string), similarity (float), a_text (string), b_text (string)
MATCH (e:Entry {scope_id: $scope_id})
WHERE e.retired_at IS NULL AND e.soft_deleted_at IS NULL AND e.embedding IS NOT NULL
WITH e ORDER BY e.created_at DESC LIMIT $limit
CALL db.index.vector.queryNodes('entry_embedding', $k, e.embedding) YIELD node, score
WITH e, node, 2 * score - 1 AS similarity
WHERE node.scope_id = $scope_id AND node.id > e.id AND node.retired_at IS NULL
  AND node.soft_deleted_at IS NULL AND similarity >= $similarity
RETURN e.id AS a, node.id AS b, similarity, e.content AS a_text, node.content AS b_text
