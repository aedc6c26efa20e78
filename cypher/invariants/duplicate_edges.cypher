// Purpose: the same relationship (start, end, type) stored more than once; every edge the
//   library writes is MERGEd on its endpoints and type, so two of them is a lost race.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: type (string), from_id (string), to_id (string), count (int)
MATCH (a)-[r]->(b)
WHERE $scope_id IS NULL OR a.scope_id = $scope_id OR b.scope_id = $scope_id
WITH a, b, type(r) AS type, count(r) AS n
WHERE n > 1
RETURN type, a.id AS from_id, b.id AS to_id, n AS count
ORDER BY type, from_id, to_id
LIMIT $limit
