// Purpose: hard-delete one entry and every relationship it has.
// Params: $id (string)
// Returns: deleted (int)
MATCH (e:Entry {id: $id})
DETACH DELETE e
RETURN count(*) AS deleted
