// Purpose: for each new vector, the cosine similarities of its nearest live entries in the scope
//   (native vector index, filtered inside the index by scope and deletion: Cypher 25 SEARCH on
//   Neo4j 2026+; the inputs of schema fit's content familiarity).
// Params: $rows (list of maps: i, vector), $scope_id (string), $k (int)
// Returns: i (int), sims (list of floats, raw cosine)
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  MATCH (node:Entry)
    SEARCH node IN (VECTOR INDEX entry_embedding FOR row.vector
                    WHERE node.scope_id = $scope_id AND node.soft_deleted_at IS NULL
                    LIMIT $k) SCORE AS score
  RETURN score
}
RETURN row.i AS i, collect(2 * score - 1) AS sims
