// Purpose: entities nothing refers to any more (no mention, no claim, no relation): deleting the
//   last entry or chunk that mentioned an entity deletes the entity too.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null), name (string or null)
MATCH (n:Entity)
WHERE ($scope_id IS NULL OR n.scope_id = $scope_id) AND NOT EXISTS { (n)--() }
RETURN n.id AS id, n.scope_id AS scope_id, n.name AS name
ORDER BY id
LIMIT $limit
