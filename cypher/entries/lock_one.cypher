// Purpose: take one entry's write lock at the start of a transaction without changing it (a
//   property set and removed in one statement; the lock is held to the end of the
//   transaction), so two transactions that delete the same entry serialise and the second one
//   finds it gone (forget: one wins, the other is told not found, one operation is logged).
// Params: $id (string), $scope_id (string or null)
// Returns: id (string)
MATCH (e:Entry {id: $id})
WHERE $scope_id IS NULL OR e.scope_id = $scope_id
SET e._lock = true
REMOVE e._lock
RETURN e.id AS id
