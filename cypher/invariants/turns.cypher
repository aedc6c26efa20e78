// Purpose: turns not held by exactly one session of their own scope and id (HAS_TURN), and
//   HAS_TURN edges that point at something that is not a turn.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null), session_id (string or null), sessions (list of maps: scope_id, id), problems (list of strings)
CALL () {
  MATCH (t:Turn)
  WHERE $scope_id IS NULL OR t.scope_id = $scope_id
  OPTIONAL MATCH (s:Session)-[:HAS_TURN]->(t)
  WITH t, collect(s) AS ss
  WITH t, ss, [p IN [
      CASE WHEN size(ss) = 0 THEN 'no session holds it' END,
      CASE WHEN size(ss) > 1 THEN 'several sessions hold it' END,
      CASE WHEN size(ss) = 1 AND NOT coalesce(ss[0].scope_id = t.scope_id, false)
           THEN 'held by a session of another scope' END,
      CASE WHEN size(ss) = 1 AND NOT coalesce(ss[0].id = t.session_id, false)
           THEN 'session_id is not the holding session' END
    ] WHERE p IS NOT NULL] AS problems
  WHERE size(problems) > 0
  RETURN t.id AS id, t.scope_id AS scope_id, t.session_id AS session_id,
         [s IN ss | {scope_id: s.scope_id, id: s.id}] AS sessions, problems
  UNION
  MATCH (s:Session)-[:HAS_TURN]->(x)
  WHERE ($scope_id IS NULL OR s.scope_id = $scope_id) AND NOT x:Turn
  RETURN x.id AS id, x.scope_id AS scope_id, s.id AS session_id,
         [{scope_id: s.scope_id, id: s.id}] AS sessions, ['HAS_TURN to a node that is not a turn'] AS problems
}
RETURN id, scope_id, session_id, sessions, problems
ORDER BY id
LIMIT $limit
