// Purpose: record a session's handoff (what was done, what is next, artifacts, blockers); the
//   text form is full-text indexed with the session.
// Params: $session_id (string), $scope_id (string), $handoff (string), $handoff_json (string), $now (datetime)
// Returns: id (string)
MATCH (s:Session {scope_id: $scope_id, id: $session_id})
WHERE s.scope_id = $scope_id
SET s.handoff = $handoff, s.handoff_json = $handoff_json, s.handoff_at = $now
RETURN s.id AS id
