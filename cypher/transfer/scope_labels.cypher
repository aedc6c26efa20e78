// Purpose: the label combinations of a scope's nodes with their counts (export checks that each
//   node has a label the format knows before writing anything).
// Params: $scope_id (string)
// Returns: labels (list of strings), count (int)
MATCH (n)
WHERE n.scope_id = $scope_id
WITH labels(n) AS labels, count(*) AS count
RETURN labels, count
ORDER BY count DESC
