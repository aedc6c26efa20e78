// Purpose: soft-delete entries (hidden from search and recent; reversible with restore).
// Params: $ids (list of strings), $scope_id (string), $reason (string), $now (datetime)
// Returns: id (string)
MATCH (e:Entry)
WHERE e.id IN $ids AND e.scope_id = $scope_id AND e.soft_deleted_at IS NULL
SET e.soft_deleted_at = $now, e.delete_reason = $reason, e.updated_at = $now
RETURN e.id AS id
