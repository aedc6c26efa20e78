// Purpose: the outgoing relationships of one page of a scope's nodes with a given key label
//   (ordered by id after a cursor) whose other end is in the same scope. Every start node of the
//   page yields one row; rows of nodes without such relationships have a null type.
// Params: $label (string), $scope_id (string), $after (string: the last start id of the previous
//   page, '' for the first), $limit (int: start nodes per page)
// Returns: cursor (string: the start node's id), start_labels (list of strings), type (string or
//   null), props (map or null), end_labels (list of strings or null), end_id (string or null),
//   end_scope (string or null)
MATCH (a:$($label))
WHERE a.scope_id = $scope_id AND a.id > $after
WITH a ORDER BY a.id LIMIT $limit
OPTIONAL MATCH (a)-[r]->(b)
WHERE b.scope_id = $scope_id
RETURN a.id AS cursor, labels(a) AS start_labels, type(r) AS type, properties(r) AS props,
       labels(b) AS end_labels, b.id AS end_id, b.scope_id AS end_scope
ORDER BY a.id, type(r), b.id
