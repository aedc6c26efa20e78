// Purpose: relations with no evidence (EVIDENCED_BY a chunk or an entry): a relation exists only
//   while some evidence supports it. Returns nothing while the graph has no relations.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null)
MATCH (r:Relation)
WHERE ($scope_id IS NULL OR r.scope_id = $scope_id)
  AND NOT EXISTS { (r)-[:EVIDENCED_BY]->() }
RETURN r.id AS id, r.scope_id AS scope_id
ORDER BY id
LIMIT $limit
