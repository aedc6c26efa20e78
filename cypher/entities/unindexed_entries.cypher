// Purpose: current entries of a scope whose entities and relations have not been extracted for
//   their present content (entities_hash differs from content_hash); conversation turns included.
// Params: $scope_id (string), $limit (int)
// Returns: id (string), content (string), content_hash (string)
MATCH (e:Entry {scope_id: $scope_id})
WHERE e.soft_deleted_at IS NULL AND coalesce(e.entities_hash, '') <> coalesce(e.content_hash, '')
RETURN e.id AS id, e.content AS content, e.content_hash AS content_hash
ORDER BY e.created_at, e.id
LIMIT $limit
