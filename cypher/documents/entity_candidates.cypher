// Purpose: for new entity names: the scope's entity with the same normalised key, else the most
//   similar entity by name vector (for the auto-merge and review bands).
// Params: $scope_id (string), $rows (list of maps: key, embedding)
// Returns: key (string), exact_id (string or null), similar_id (string or null), similar_name (string or null), score (float or null)
UNWIND $rows AS row
OPTIONAL MATCH (x:Entity {scope_id: $scope_id, normalized_name: row.key})
WITH row, head(collect(x.id)) AS exact_id
OPTIONAL CALL (row, exact_id) {
  WITH row WHERE exact_id IS NULL AND row.embedding IS NOT NULL
  CALL db.index.vector.queryNodes('entity_embedding', 25, row.embedding) YIELD node, score
  WITH node, score WHERE node.scope_id = $scope_id
  RETURN node.id AS similar_id, node.name AS similar_name, score
  ORDER BY score DESC LIMIT 1
}
RETURN row.key AS key, exact_id, similar_id, similar_name, score
