// Purpose: the scope of a session (to refuse cross-scope writes).
// Params: $session_id (string)
// Returns: scope_id (string)
MATCH (s:Session {id: $session_id})
RETURN s.scope_id AS scope_id
