// Purpose: keyword candidates for a recall: Lucene scores of the scope's sessions (title,
//   request, summary, keywords, topics, handoff) and of their turns, summed per session.
// Params: $scope_id (string), $lucene (string: the words in the scope's session_text fields),
//   $lucene_turns (string: the same in entry_text; both services/kernel/fulltext.py), $k (int),
//   $as_of, $valid_at (datetime or null: only turns recorded / said by then count)
// Returns: id (string), score (float)
CALL () {
  CALL db.index.fulltext.queryNodes('session_text', $lucene, {limit: $k}) YIELD node, score
  WITH node, score WHERE node.scope_id = $scope_id
  RETURN node.id AS id, score
  UNION ALL
  CALL db.index.fulltext.queryNodes('entry_text', $lucene_turns, {limit: $k * 4}) YIELD node, score
  WITH node, score WHERE node.scope_id = $scope_id AND node:Turn
    AND ($as_of IS NULL OR node.created_at <= $as_of)
    AND ($valid_at IS NULL OR coalesce(node.valid_from, node.created_at) <= $valid_at)
  MATCH (s:Session)-[:HAS_TURN]->(node)
  WITH s, collect(score) AS scores
  RETURN s.id AS id, reduce(t = 0.0, x IN scores[0..3] | t + x) AS score
}
RETURN id, sum(score) AS score
