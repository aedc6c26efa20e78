// Purpose: every node of a scope (audit records left out) with its labels and properties, and
//   every relationship touching one, for the exact before/after comparison of the undo tests.
// Params: $scope_id (string)
// Returns: nodes (list of maps: labels, props), rels (list of maps: type, start, end, props)
MATCH (n) WHERE n.scope_id = $scope_id AND NOT n:Operation
WITH collect(n) AS ns
CALL (ns) {
  UNWIND ns AS n
  RETURN collect({labels: labels(n), props: properties(n)}) AS nodes
}
CALL (ns) {
  UNWIND ns AS n
  MATCH (n)-[r]-(m)
  WHERE NOT m:Operation
  WITH DISTINCT r
  RETURN collect({type: type(r), start: [labels(startNode(r)), startNode(r).id],
                  end: [labels(endNode(r)), endNode(r).id], props: properties(r)}) AS rels
}
RETURN nodes, rels
