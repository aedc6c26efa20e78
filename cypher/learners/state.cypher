// Purpose: what a learner had stored in a scope up to a time (valid_from at or before $as_of),
//   oldest first: the state a learner that follows items across runs (CI tests) starts from.
// Params: $scope_id (string), $prefix (string), $as_of (datetime), $limit (int)
// Returns: source_id (string), entry_type (string), valid_from (datetime)
MATCH (e:Entry)
WHERE e.source_id STARTS WITH $prefix AND e.scope_id = $scope_id AND e.valid_from <= $as_of
  AND e.soft_deleted_at IS NULL
RETURN e.source_id AS source_id, e.entry_type AS entry_type, e.valid_from AS valid_from
ORDER BY e.valid_from, e.source_id
LIMIT $limit
