// Purpose: fetch entries by id in the caller's order; ids that do not exist (or belong to another
//   scope when a scope is given) are left out.
// Params: $ids (list of strings), $scope_id (string or null)
// Returns: entry (map, no embedding)
UNWIND range(0, size($ids) - 1) AS i
MATCH (e:Entry {id: $ids[i]})
WHERE $scope_id IS NULL OR e.scope_id = $scope_id
RETURN e {.*, embedding: null, context_embedding: null} AS entry
ORDER BY i
