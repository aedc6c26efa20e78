// Purpose: a scope's subgraph for the notebooks' graph view (recollect_graph.analysis.graph):
//   up to $limit relationships between its current entries (not turns) and the entries,
//   entities, claims and topics they link to, each node with its labels and properties
//   (embeddings left out); an edge between two entries comes once.
// Params: $scope (string), $limit (int)
// Returns: a (map: id, labels, props), b (map: id, labels, props), type (string), out (bool)
MATCH (e:Entry {scope_id: $scope})-[r]-(x)
WHERE NOT e:Turn AND e.retired_at IS NULL AND e.soft_deleted_at IS NULL
  AND x.scope_id = $scope AND (x:Entry OR x:Entity OR x:Claim OR x:Topic)
  AND (NOT x:Entry OR (NOT x:Turn AND x.retired_at IS NULL AND e.id < x.id))
RETURN {id: e.id, labels: labels(e), props: e {.*, embedding: null, context_embedding: null}} AS a,
       {id: x.id, labels: labels(x), props: x {.*, embedding: null, context_embedding: null}} AS b,
       type(r) AS type, startNode(r) = e AS out
ORDER BY CASE WHEN x:Entry THEN 0 ELSE 1 END, e.created_at DESC
LIMIT $limit
