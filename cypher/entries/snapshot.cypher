// Purpose: everything needed to undo the deletion of an entry: its properties (embedding
//   included), its labels and its knowledge edges in both directions.
// Params: $id (string), $scope_id (string or null)
// Returns: props (map), labels (list of strings), edges (list of maps: type, out, other, props)
MATCH (e:Entry {id: $id})
WHERE $scope_id IS NULL OR e.scope_id = $scope_id
OPTIONAL MATCH (e)-[r]-(o:Entry)
WITH e, collect(CASE WHEN r IS NULL THEN null ELSE
  {type: type(r), out: startNode(r) = e, other: o.id, props: properties(r)} END) AS edges
RETURN properties(e) AS props, labels(e) AS labels, edges
