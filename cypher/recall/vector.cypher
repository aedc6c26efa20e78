// Purpose: semantic candidates for a recall: the scope's sessions nearest to the query by their
//   session vector, and by their best-matching turn (cosine in [-1, 1]).
// Params: $scope_id (string), $vector (list of floats), $k (int),
//   $as_of, $valid_at (datetime or null: only turns recorded / said by then count)
// Returns: id (string), session_cos (float or null), turn_cos (float or null), turn_id (string or null)
CALL () {
  CALL db.index.vector.queryNodes('session_embedding', $k, $vector) YIELD node, score
  WITH node, score WHERE node.scope_id = $scope_id
  RETURN node.id AS id, 2 * score - 1 AS session_cos, null AS turn_cos, null AS turn_id
  UNION ALL
  CALL db.index.vector.queryNodes('entry_embedding', $k * 4, $vector) YIELD node, score
  WITH node, score WHERE node.scope_id = $scope_id AND node:Turn
    AND ($as_of IS NULL OR node.created_at <= $as_of)
    AND ($valid_at IS NULL OR coalesce(node.valid_from, node.created_at) <= $valid_at)
  MATCH (s:Session)-[:HAS_TURN]->(node)
  RETURN s.id AS id, null AS session_cos, 2 * score - 1 AS turn_cos, node.id AS turn_id
}
WITH id, session_cos, turn_cos, turn_id ORDER BY turn_cos DESC
RETURN id, max(session_cos) AS session_cos, max(turn_cos) AS turn_cos,
       collect(turn_id)[0] AS turn_id
