// Purpose: for each new vector, the cosine similarities of its nearest live entries in the scope
//   (native vector index; the inputs of schema fit's content familiarity).
// Params: $rows (list of maps: i, vector), $scope_id (string), $k (int)
// Returns: i (int), sims (list of floats, raw cosine)
UNWIND $rows AS row
CALL db.index.vector.queryNodes('entry_embedding', $k, row.vector) YIELD node, score
WITH row, node, score
WHERE node.scope_id = $scope_id AND node.soft_deleted_at IS NULL
RETURN row.i AS i, collect(2 * score - 1) AS sims
