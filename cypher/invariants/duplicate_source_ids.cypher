// Purpose: two entries of one scope with the same source_id (for turns: of one session), which
//   the deterministic ids exist to prevent.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: scope_id (string), session_id (string or null), source_id (string), ids (list of strings)
MATCH (e:Entry)
WHERE e.source_id IS NOT NULL AND ($scope_id IS NULL OR e.scope_id = $scope_id)
WITH e.scope_id AS scope_id, CASE WHEN e:Turn THEN e.session_id END AS session_id,
     e.source_id AS source_id, collect(e.id) AS ids
WHERE size(ids) > 1
RETURN scope_id, session_id, source_id, ids
ORDER BY scope_id, source_id
LIMIT $limit
