// Purpose: a page of the newest current entries of a scope (not retired, not soft-deleted, still
//   valid), newest first, ties by id.
// Params: $scope_id (string), $skip (int), $limit (int), $now (datetime)
// Returns: entry (map, no embedding)
MATCH (e:Entry {scope_id: $scope_id})
WHERE e.retired_at IS NULL AND e.soft_deleted_at IS NULL
  AND (e.valid_to IS NULL OR e.valid_to > $now)
RETURN e {.*, embedding: null} AS entry
ORDER BY e.created_at DESC, e.id
SKIP $skip LIMIT $limit
