// Purpose: entries that lack what every entry carries: a scope, an owner, content and an
//   embedding (a stored vector; its model is checked by invariants/vectors).
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null), problems (list of strings)
MATCH (e:Entry)
WHERE $scope_id IS NULL OR e.scope_id = $scope_id
WITH e, [p IN [
    CASE WHEN e.scope_id IS NULL THEN 'no scope_id' END,
    CASE WHEN e.owner_id IS NULL THEN 'no owner_id' END,
    CASE WHEN e.content IS NULL THEN 'no content' END,
    CASE WHEN e.embedding IS NULL THEN 'no embedding' END
  ] WHERE p IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN e.id AS id, e.scope_id AS scope_id, problems
ORDER BY id
LIMIT $limit
