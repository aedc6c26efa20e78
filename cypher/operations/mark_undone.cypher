// Purpose: mark an operation undone (only once).
// Params: $id (string), $now (datetime)
// Returns: id (string)
MATCH (o:Operation {id: $id})
WHERE o.undone_at IS NULL
SET o.undone_at = $now
RETURN o.id AS id
