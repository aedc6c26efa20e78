// Purpose: undo: remove edges an operation created.
// Params: $rows (list of maps: source_id, target_id), $rel_type (string, allow-listed)
// Returns: n (int)
UNWIND $rows AS row
MATCH (:Entry {id: row.source_id})-[r:$($rel_type)]->(:Entry {id: row.target_id})
DELETE r
RETURN count(r) AS n
