// Purpose: one page of a scope's nodes with a given key label, ordered by id after a cursor
//   (export streams a scope in pages). The label comes from the export format's allow-list.
// Params: $label (string), $scope_id (string), $after (string: the last id of the previous page,
//   '' for the first), $limit (int)
// Returns: labels (list of strings), props (map: every property, embeddings included)
MATCH (n:$($label))
WHERE n.scope_id = $scope_id AND n.id > $after
RETURN labels(n) AS labels, properties(n) AS props
ORDER BY n.id
LIMIT $limit
