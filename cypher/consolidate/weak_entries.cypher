// Purpose: archive candidates: current, unpinned entries with a negative signal (confidence at
//   most 0.3, or a bad outcome). Never chosen merely for not being retrieved.
// Params: $scope_id (string)
// Returns: entry (map, no embedding)
MATCH (e:Entry {scope_id: $scope_id})
WHERE e.retired_at IS NULL AND e.soft_deleted_at IS NULL AND NOT coalesce(e.pinned, false)
  AND (e.confidence <= 0.3 OR e.outcome_score = -1)
RETURN e {.*, embedding: null, context_embedding: null} AS entry
