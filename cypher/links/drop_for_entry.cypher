// Purpose: drop the pending link suggestions that name an entry (before it is deleted), so no
//   pending suggestion ever points at a deleted entry. Accepted and rejected ones are history
//   and stay.
// Params: $id (string), $scope_id (string)
// Returns: removed (int)
MATCH (s:LinkSuggestion {scope_id: $scope_id})
WHERE s.status = 'pending' AND (s.from_id = $id OR s.to_id = $id OR s.a = $id OR s.b = $id)
DELETE s
RETURN count(*) AS removed
