// Purpose: store a session's reflection once per session (idempotent), mark the session
//   processed, and link the memories it produced to the session.
// Params: $session_id (string), $scope_id (string), $reflection_id (string), $summary (string), $lists (map of lists), $memory_ids (list of strings), $now (datetime)
// Returns: created (bool), session_scope (string)
MERGE (s:Session {scope_id: $scope_id, id: $session_id})
  ON CREATE SET s.started_at = $now, s.created_at = $now
WITH s
WHERE s.scope_id = $scope_id
SET s.processed_at = coalesce(s.processed_at, $now), s.summary = coalesce(s.summary, $summary)
MERGE (r:Reflection {id: $reflection_id})
  ON CREATE SET r.scope_id = $scope_id, r.session_id = $session_id, r.summary = $summary,
                r.lessons = $lists.lessons, r.discoveries = $lists.discoveries,
                r.good_patterns = $lists.good_patterns,
                r.user_profile_updates = $lists.user_profile_updates,
                r.decisions = $lists.decisions, r.memory_ids = $memory_ids,
                r.created_at = $now, r._created = true
MERGE (r)-[:ABOUT_SESSION]->(s)
WITH s, r, coalesce(r._created, false) AS created
REMOVE r._created
WITH s, created
UNWIND (CASE WHEN size($memory_ids) = 0 THEN [null] ELSE $memory_ids END) AS mid
OPTIONAL MATCH (e:Entry {id: mid})
WHERE e.scope_id = $scope_id
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END | MERGE (e)-[:FROM_SESSION]->(s))
RETURN DISTINCT created, s.scope_id AS session_scope
