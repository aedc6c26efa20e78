// Purpose: undo a soft delete.
// Params: $ids (list of strings), $scope_id (string), $now (datetime)
// Returns: id (string)
MATCH (e:Entry)
WHERE e.id IN $ids AND e.scope_id = $scope_id AND e.soft_deleted_at IS NOT NULL
REMOVE e.soft_deleted_at, e.delete_reason
SET e.updated_at = $now
RETURN e.id AS id
