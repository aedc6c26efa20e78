// Purpose: node counts per label of one scope (a node with two labels counts for each).
// Params: $scope_id (string)
// Returns: label (string), count (int)
MATCH (n)
WHERE n.scope_id = $scope_id
UNWIND labels(n) AS label
RETURN label, count(*) AS count
ORDER BY label
