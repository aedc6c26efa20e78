// Purpose: mark a pending suggestion accepted or rejected (kept for audit, never deleted).
// Params: $id (string), $status (string), $relation_type (string or null), $now (datetime)
// Returns: status (string)
MATCH (s:LinkSuggestion {id: $id})
WHERE s.status = 'pending'
SET s.status = $status, s.reviewed_at = $now, s.accepted_type = $relation_type
RETURN s.status AS status
