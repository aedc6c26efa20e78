// Purpose: which of these titles are held in the scope by entries other than the given ids
//   (titles are unique per scope; a learned title that is taken moves into metadata).
// Params: $scope_id (string), $titles (list of strings), $ids (list of strings)
// Returns: title (string)
MATCH (e:Entry {scope_id: $scope_id})
WHERE e.title IN $titles AND NOT e.id IN $ids
RETURN DISTINCT e.title AS title
