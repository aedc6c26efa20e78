// Purpose: nodes with an id (in one scope, or any), looked up under each key label of the
//   export format's allow-list, with their properties minus the embedding.
// Params: $labels (list of strings: key labels), $id (string), $scope_id (string or null)
// Returns: labels (list of strings), props (map), element_id (string)
UNWIND $labels AS label
CALL (label) {
  MATCH (n:$(label) {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
}
WITH DISTINCT n
RETURN labels(n) AS labels, n {.*, embedding: null} AS props, elementId(n) AS element_id
ORDER BY n.scope_id
LIMIT 20
