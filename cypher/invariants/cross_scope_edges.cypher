// Purpose: relationships between nodes of two different scopes (any type: knowledge edges,
//   CONTRADICTS, SUPERSEDES, FORKED_FROM, HAS_TURN, ASSERTS, MENTIONS, CITES...). No write
//   may cross scopes.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: type (string), from_label (string), from_id (string), from_scope (string), to_label (string), to_id (string), to_scope (string)
MATCH (a)-[r]->(b)
WHERE a.scope_id IS NOT NULL AND b.scope_id IS NOT NULL AND a.scope_id <> b.scope_id
  AND ($scope_id IS NULL OR a.scope_id = $scope_id OR b.scope_id = $scope_id)
RETURN type(r) AS type, labels(a)[0] AS from_label, a.id AS from_id, a.scope_id AS from_scope,
       labels(b)[0] AS to_label, b.id AS to_id, b.scope_id AS to_scope
ORDER BY type, from_id, to_id
LIMIT $limit
