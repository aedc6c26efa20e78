// Purpose: retired entries whose retirement has no cause in the graph: retired_by names an
//   entry (or a document that replaced it) that is gone or in another scope, or that does not
//   SUPERSEDE them.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: id (string), scope_id (string or null), retired_by (string), problems (list of strings)
MATCH (e:Entry)
WHERE e.retired_by IS NOT NULL AND ($scope_id IS NULL OR e.scope_id = $scope_id)
OPTIONAL MATCH (ne:Entry {id: e.retired_by})
OPTIONAL MATCH (nd:Document {id: e.retired_by})
WITH e, coalesce(ne, nd) AS n
WITH e, n, [p IN [
    CASE WHEN n IS NULL THEN 'the superseding entry is gone' END,
    CASE WHEN n IS NOT NULL AND n.scope_id <> e.scope_id THEN 'superseded from another scope' END,
    CASE WHEN n IS NOT NULL AND NOT EXISTS { (n)-[:SUPERSEDES]->(e) }
         THEN 'no SUPERSEDES edge from retired_by' END
  ] WHERE p IS NOT NULL] AS problems
WHERE size(problems) > 0
RETURN e.id AS id, e.scope_id AS scope_id, e.retired_by AS retired_by, problems
ORDER BY id
LIMIT $limit
