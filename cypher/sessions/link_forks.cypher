// Purpose: link every fork of a scope to its parent session when the parent exists in the same
//   scope (FORKED_FROM, idempotent). Forks whose parent record is gone keep only their
//   parent_pointer.
// Params: $scope_id (string)
// Returns: linked (int)
MATCH (f:Session)
WHERE f.scope_id = $scope_id AND f.fork_marker AND f.parent_pointer IS NOT NULL
MATCH (p:Session {scope_id: $scope_id, id: f.parent_pointer})
WHERE p.scope_id = $scope_id AND p <> f
MERGE (f)-[:FORKED_FROM]->(p)
RETURN count(*) AS linked
