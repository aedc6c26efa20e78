// Purpose: mark a scope drop purged (its scope is gone for good: it can no longer be undone).
// Params: $id (string), $now (datetime)
// Returns: id (string)
MATCH (o:Operation {id: $id})
WHERE o.purged_at IS NULL AND o.undone_at IS NULL
SET o.purged_at = $now
RETURN o.id AS id
