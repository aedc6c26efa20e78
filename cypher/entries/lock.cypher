// Purpose: take the write locks of entries of a scope at the start of a transaction without
//   changing them (a property set and removed; the locks are held to its end), so a
//   read-modify-write that follows in the same transaction (feedback counts) sees every
//   concurrent writer's committed result and none is lost, and what it records for undo is
//   the state before it. Ids are taken in sorted order so two lockers do not deadlock.
// Params: $ids (list of strings), $scope_id (string)
// Returns: id (string)
UNWIND $ids AS id
WITH id ORDER BY id
MATCH (e:Entry {id: id})
WHERE e.scope_id = $scope_id
SET e._lock = true
REMOVE e._lock
RETURN e.id AS id
