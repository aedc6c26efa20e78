// Purpose: for new entity names: the scope's entity with the same normalised key, else the most
//   similar entity of the scope by name vector (for the auto-merge and review bands), found by the
//   vector index filtered by scope (Cypher 25 SEARCH on Neo4j 2026+).
// Params: $scope_id (string), $rows (list of maps: key, embedding)
// Returns: key (string), exact_id (string or null), similar_id (string or null), similar_name (string or null), score (float or null)
CYPHER 25
UNWIND $rows AS row
OPTIONAL MATCH (x:Entity {scope_id: $scope_id, normalized_name: row.key})
WITH row, head(collect(x.id)) AS exact_id
OPTIONAL CALL (row, exact_id) {
  WITH row WHERE exact_id IS NULL AND row.embedding IS NOT NULL
  MATCH (node:Entity)
    SEARCH node IN (VECTOR INDEX entity_embedding FOR row.embedding
                    WHERE node.scope_id = $scope_id LIMIT 1) SCORE AS score
  RETURN node.id AS similar_id, node.name AS similar_name, score
}
RETURN row.key AS key, exact_id, similar_id, similar_name, score
