// Purpose: the scope of an entry (no row when there is no such entry).
// Params: $id (string)
// Returns: scope_id (string)
MATCH (e:Entry {id: $id})
RETURN e.scope_id AS scope_id
