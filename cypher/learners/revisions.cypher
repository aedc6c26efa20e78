// Purpose: current entries of a scope that are earlier revisions of a learned item (their
//   source id starts with the item's prefix), for each new revision.
// Params: $scope_id (string), $rows (list of maps: new_id, prefix)
// Returns: new_id (string), old_ids (list of strings)
UNWIND $rows AS row
MATCH (e:Entry)
WHERE e.source_id STARTS WITH row.prefix AND e.scope_id = $scope_id AND e.id <> row.new_id
  AND e.retired_at IS NULL AND e.soft_deleted_at IS NULL
RETURN row.new_id AS new_id, collect(e.id) AS old_ids
