// Purpose: demote superseded entries: confidence 0.1, no longer valid or believed from $now,
//   with the entry that replaced them.
// Params: $ids (list of strings), $scope_id (string), $now (datetime), $by (string or null)
// Returns: id (string)
MATCH (e:Entry)
WHERE e.id IN $ids AND e.scope_id = $scope_id
SET e.confidence = 0.1, e.valid_to = $now, e.retired_at = $now, e.retired_by = $by,
    e.updated_at = $now
RETURN e.id AS id
