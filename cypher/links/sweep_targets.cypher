// Purpose: memories of a scope created or changed since the last sweep (all when $since is null),
//   current and not deleted: what an incremental sweep re-scans.
// Params: $scope_id (string), $since (datetime or null)
// Returns: id (string)
MATCH (e:Entry {scope_id: $scope_id})
WHERE e.soft_deleted_at IS NULL AND e.retired_at IS NULL AND e.embedding IS NOT NULL
  AND ($since IS NULL OR coalesce(e.updated_at, e.created_at) >= $since)
RETURN e.id AS id
ORDER BY e.created_at
