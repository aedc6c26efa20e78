// Purpose: a page of the newest current entries of a scope (not retired, not soft-deleted, valid
//   now: a valid_from still ahead is not valid yet), newest first, ties by id. Record time: with
//   $as_of, what was recorded and believed at that moment. Valid time: with $valid_at, what was
//   true at that moment (valid_from, or the creation when there is none, at or before it;
//   valid_to after it; an entry retired since counts). The same rules as search/candidates.
// Params: $scope_id (string), $skip (int), $limit (int), $now (datetime), $as_of (datetime or null), $valid_at (datetime or null)
// Returns: entry (map, no embedding)
MATCH (e:Entry {scope_id: $scope_id})
WHERE (e.soft_deleted_at IS NULL OR ($as_of IS NOT NULL AND e.soft_deleted_at > $as_of))
  AND ($as_of IS NULL OR e.created_at <= $as_of)
  AND ($valid_at IS NOT NULL OR e.retired_at IS NULL
       OR ($as_of IS NOT NULL AND e.retired_at > $as_of))
  AND coalesce(CASE WHEN $valid_at IS NULL THEN e.valid_from
                    ELSE coalesce(e.valid_from, e.created_at) END
               <= coalesce($valid_at, $as_of, $now), true)
  AND (e.valid_to IS NULL OR e.valid_to > coalesce($valid_at, $as_of, $now))
RETURN e {.*, embedding: null, context_embedding: null} AS entry
ORDER BY e.created_at DESC, e.id
SKIP $skip LIMIT $limit
