// Purpose: link suggestions that point at entries of another scope, or pending suggestions one
//   of whose entries is gone (a reviewed suggestion is history and may outlive its entries).
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null), status (string or null), from_id (string or null), to_id (string or null), problems (list of strings)
MATCH (s:LinkSuggestion)
WHERE $scope_id IS NULL OR s.scope_id = $scope_id
OPTIONAL MATCH (f:Entry {id: s.from_id})
OPTIONAL MATCH (t:Entry {id: s.to_id})
WITH s, f, t, [p IN [
    CASE WHEN s.status = 'pending' AND f IS NULL THEN 'pending, its from entry is gone' END,
    CASE WHEN s.status = 'pending' AND t IS NULL THEN 'pending, its to entry is gone' END,
    CASE WHEN f IS NOT NULL AND f.scope_id <> s.scope_id THEN 'from entry in another scope' END,
    CASE WHEN t IS NOT NULL AND t.scope_id <> s.scope_id THEN 'to entry in another scope' END
  ] WHERE p IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN s.id AS id, s.scope_id AS scope_id, s.status AS status, s.from_id AS from_id,
       s.to_id AS to_id, problems
ORDER BY id
LIMIT $limit
