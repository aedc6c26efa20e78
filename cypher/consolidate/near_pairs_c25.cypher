// Purpose: near-duplicate pairs among the newest $limit current entries of a scope, through the
//   native vector index (k nearest current entries of the same scope per entry, filtered inside
//   the index: Cypher 25 SEARCH on Neo4j 2026+), at or above a cosine similarity.
// Params: $scope_id (string), $limit (int), $k (int), $similarity (float)
// Returns: a (string), b (string), similarity (float), a_text (string), b_text (string)
CYPHER 25
MATCH (e:Entry {scope_id: $scope_id})
WHERE e.retired_at IS NULL AND e.soft_deleted_at IS NULL AND e.embedding IS NOT NULL
WITH e ORDER BY e.created_at DESC LIMIT $limit
CALL (e) {
  MATCH (node:Entry)
    SEARCH node IN (VECTOR INDEX entry_embedding FOR e.embedding
                    WHERE node.scope_id = $scope_id AND node.retired_at IS NULL
                      AND node.soft_deleted_at IS NULL
                    LIMIT $k) SCORE AS score
  RETURN node, score
}
WITH e, node, 2 * score - 1 AS similarity
WHERE node.id > e.id AND similarity >= $similarity
RETURN e.id AS a, node.id AS b, similarity, e.content AS a_text, node.content AS b_text
