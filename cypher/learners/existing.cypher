// Purpose: which of these entry ids already exist in the scope (learned before), and whether
//   each is current (not retired, not deleted).
// Params: $scope_id (string), $ids (list of strings)
// Returns: id (string), current (bool)
UNWIND $ids AS id
MATCH (e:Entry {id: id})
WHERE e.scope_id = $scope_id
RETURN e.id AS id, (e.retired_at IS NULL AND e.soft_deleted_at IS NULL) AS current
