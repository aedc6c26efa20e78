// Purpose: the full records of a search's hits, by id in the caller's order (ids that do not
//   exist or belong to another scope are left out). Like entries/get_many, but an Entry's times
//   come as epoch microseconds (exact; the driver builds a DateTime in ~57 us, and ten hits carry
//   dozens of them): services/kernel/times.py turns them back into UTC datetimes.
// Params: $ids (list of strings), $scope_id (string)
// Returns: entry (map, no embedding; created_at, updated_at, last_accessed_at, valid_from,
//   valid_to, retired_at, soft_deleted_at as epoch microseconds or null)
UNWIND range(0, size($ids) - 1) AS i
MATCH (e:Entry {id: $ids[i]})
WHERE e.scope_id = $scope_id
RETURN e {.*, embedding: null, context_embedding: null,
          created_at: e.created_at.epochSeconds * 1000000 + e.created_at.microsecond,
          updated_at: e.updated_at.epochSeconds * 1000000 + e.updated_at.microsecond,
          last_accessed_at: e.last_accessed_at.epochSeconds * 1000000
                            + e.last_accessed_at.microsecond,
          valid_from: e.valid_from.epochSeconds * 1000000 + e.valid_from.microsecond,
          valid_to: e.valid_to.epochSeconds * 1000000 + e.valid_to.microsecond,
          retired_at: e.retired_at.epochSeconds * 1000000 + e.retired_at.microsecond,
          soft_deleted_at: e.soft_deleted_at.epochSeconds * 1000000
                           + e.soft_deleted_at.microsecond} AS entry
ORDER BY i
