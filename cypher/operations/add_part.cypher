// Purpose: add one part of the before-state of an operation that grows batch by batch (an
//   import), in the transaction of the batch it records: each batch writes only its own part,
//   so the record costs the transaction log what the batch changed, not everything so far.
// Params: $id (string), $part (map: one property, its name footprint.PART_PREFIX plus the
//   batch's number, its value the batch's difference as JSON)
// Returns: id (string)
MATCH (o:Operation {id: $id})
WHERE o.undone_at IS NULL
SET o += $part
RETURN o.id AS id
