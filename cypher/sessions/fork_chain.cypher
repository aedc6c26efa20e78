// Purpose: fork-parent backtracking: a session and its FORKED_FROM ancestors, nearest first, up
//   to the top of the chain (a session that forks from nothing stored).
// Params: $session_id (string), $scope_id (string)
// Returns: chain (list of maps: id, cwd, fork_marker, parent_pointer, title, started_at,
//   transcript_path)
MATCH (s:Session {scope_id: $scope_id, id: $session_id})
WHERE s.scope_id = $scope_id
MATCH p = (s)-[:FORKED_FROM*0..20]->(top:Session)
WHERE NOT (top)-[:FORKED_FROM]->(:Session)
WITH p ORDER BY length(p) DESC LIMIT 1
RETURN [n IN nodes(p) | n {.id, .cwd, .fork_marker, .parent_pointer, .title, .started_at,
                            .transcript_path}] AS chain
