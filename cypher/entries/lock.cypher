// Purpose: take the write locks of entries of a scope at the start of a transaction (a property
//   write; the locks are held to its end), so a read-modify-write that follows in the same
//   transaction (feedback counts) sees every concurrent writer's committed result and none is
//   lost. Ids are taken in sorted order so two lockers do not deadlock each other.
// Params: $ids (list of strings), $scope_id (string), $now (datetime)
// Returns: id (string)
UNWIND $ids AS id
WITH id ORDER BY id
MATCH (e:Entry {id: id})
WHERE e.scope_id = $scope_id
SET e.updated_at = $now
RETURN e.id AS id
