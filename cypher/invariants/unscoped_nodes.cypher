// Purpose: nodes of the library's own labels that carry no scope_id (every node belongs to one
//   scope). Only meaningful over the whole graph: with a scope given it returns nothing.
// Params: $scope_id (string or null: every scope), $labels (list of strings), $limit (int)
// Returns: labels (list of strings), id (string or null)
MATCH (n)
WHERE $scope_id IS NULL AND n.scope_id IS NULL AND any(l IN labels(n) WHERE l IN $labels)
RETURN labels(n) AS labels, n.id AS id
ORDER BY id
LIMIT $limit
