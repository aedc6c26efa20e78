// Purpose: the work waiting in the graph (or one scope): pending link suggestions, open
//   contradictions (both entries current), stale topics (a member changed after the topic, or
//   the topic was never computed) and sessions whose recall index is stale.
// Params: $scope_id (string or null)
// Returns: pending_suggestions, open_conflicts, stale_topics, stale_sessions (ints)
CALL () {
  MATCH (s:LinkSuggestion)
  WHERE s.status = 'pending' AND ($scope_id IS NULL OR s.scope_id = $scope_id)
  RETURN count(s) AS pending_suggestions
}
CALL () {
  MATCH (a:Entry)-[r:CONTRADICTS]->(b:Entry)
  WHERE ($scope_id IS NULL OR a.scope_id = $scope_id)
    AND coalesce(r.status, 'open') = 'open' AND a.retired_at IS NULL AND b.retired_at IS NULL
    AND a.soft_deleted_at IS NULL AND b.soft_deleted_at IS NULL
  RETURN count(r) AS open_conflicts
}
CALL () {
  MATCH (t:Topic)
  WHERE ($scope_id IS NULL OR t.scope_id = $scope_id)
    AND (t.updated_at IS NULL
         OR EXISTS { MATCH (m)-[:IN_TOPIC]->(t) WHERE m.updated_at > t.updated_at })
  RETURN count(t) AS stale_topics
}
CALL () {
  MATCH (s:Session)
  WHERE ($scope_id IS NULL OR s.scope_id = $scope_id) AND s.indexed_at IS NULL
  RETURN count(s) AS stale_sessions
}
RETURN pending_suggestions, open_conflicts, stale_topics, stale_sessions
