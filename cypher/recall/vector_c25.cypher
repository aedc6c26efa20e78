// Purpose: semantic candidates for a recall on Neo4j 2026+ (Cypher 25 SEARCH, filtered inside
//   the vector index): the scope's sessions nearest to the query by their session vector, and by
//   their best-matching turn (cosine in [-1, 1]). The scope (and for turns the entry type) is a
//   filter property of the index, so other scopes never crowd out this one's nearest items.
// Params: $scope_id (string), $vector (list of floats), $k (int),
//   $as_of, $valid_at (datetime or null: only turns recorded / said by then count)
// Returns: id (string), session_cos (float or null), turn_cos (float or null), turn_id (string or null)
CYPHER 25
CALL () {
  MATCH (node:Session)
    SEARCH node IN (VECTOR INDEX session_embedding FOR $vector
                    WHERE node.scope_id = $scope_id LIMIT $k) SCORE AS score
  RETURN node.id AS id, 2 * score - 1 AS session_cos, null AS turn_cos, null AS turn_id
  UNION ALL
  MATCH (node:Entry)
    SEARCH node IN (VECTOR INDEX entry_embedding FOR $vector
                    WHERE node.scope_id = $scope_id AND node.entry_type = 'conversation_turn'
                    LIMIT $k * 4) SCORE AS score
  WITH node, score
  WHERE ($as_of IS NULL OR node.created_at <= $as_of)
    AND ($valid_at IS NULL OR coalesce(node.valid_from, node.created_at) <= $valid_at)
  MATCH (s:Session)-[:HAS_TURN]->(node:Turn)
  RETURN s.id AS id, null AS session_cos, 2 * score - 1 AS turn_cos, node.id AS turn_id
}
WITH id, session_cos, turn_cos, turn_id ORDER BY turn_cos DESC
RETURN id, max(session_cos) AS session_cos, max(turn_cos) AS turn_cos,
       collect(turn_id)[0] AS turn_id
