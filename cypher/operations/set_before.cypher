// Purpose: rewrite the before-state of an operation that grows batch by batch (an import),
//   in the transaction of the batch it now includes.
// Params: $id (string), $before (string, JSON)
// Returns: id (string)
MATCH (o:Operation {id: $id})
WHERE o.undone_at IS NULL
SET o.before = $before
RETURN o.id AS id
