// Purpose: a page of the sessions of a scope, newest first, ties by id (optionally only forks,
//   or only those under a working directory).
// Params: $scope_id (string), $forks_only (bool), $cwd (string or null), $skip (int), $limit (int)
// Returns: session (map: id, title, cwd, started_at, last_turn_at, turn_count, fork_marker,
//   parent_pointer, origin, topics, initial_request)
MATCH (s:Session)
WHERE s.scope_id = $scope_id AND (NOT $forks_only OR s.fork_marker)
  AND ($cwd IS NULL OR s.cwd STARTS WITH $cwd)
RETURN s {.id, .title, .cwd, .started_at, .last_turn_at, .turn_count, .fork_marker,
          .parent_pointer, .origin, .topics, .initial_request} AS session
ORDER BY coalesce(s.last_turn_at, s.created_at) DESC, s.id
SKIP $skip LIMIT $limit
