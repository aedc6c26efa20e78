// Purpose: set the status of the contradiction edge between two entries (either direction).
// Params: $a (string), $b (string), $status (string), $resolved_by (string or null), $now (datetime)
// Returns: status (string or null: the status before)
MATCH (x:Entry {id: $a})-[r:CONTRADICTS]-(y:Entry {id: $b})
WITH r, r.status AS before
SET r.status = $status, r.resolved_by = $resolved_by, r.resolved_at = $now
RETURN before AS status
