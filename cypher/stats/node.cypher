// Purpose: nodes with an id (in one scope, or any), looked up under each key label of the
//   export format's allow-list, with their properties minus the embedding.
//   Neo4j 5.26 plans a dynamic label ($(...)) in MATCH or MERGE as a scan of every node, so
//   each key label of the export format's allow-list has its own branch (an index seek).
// Params: $labels (list of strings: key labels), $id (string), $scope_id (string or null)
// Returns: labels (list of strings), props (map), element_id (string)
CALL () {
  WITH 1 AS one WHERE 'Entry' IN $labels
  MATCH (n:Entry {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Entity' IN $labels
  MATCH (n:Entity {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Identifier' IN $labels
  MATCH (n:Identifier {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Marker' IN $labels
  MATCH (n:Marker {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Topic' IN $labels
  MATCH (n:Topic {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Session' IN $labels
  MATCH (n:Session {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Claim' IN $labels
  MATCH (n:Claim {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Relation' IN $labels
  MATCH (n:Relation {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Collection' IN $labels
  MATCH (n:Collection {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Document' IN $labels
  MATCH (n:Document {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Chunk' IN $labels
  MATCH (n:Chunk {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'PipelineRun' IN $labels
  MATCH (n:PipelineRun {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'AccessEvent' IN $labels
  MATCH (n:AccessEvent {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'LinkSuggestion' IN $labels
  MATCH (n:LinkSuggestion {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Reflection' IN $labels
  MATCH (n:Reflection {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'LearnerCursor' IN $labels
  MATCH (n:LearnerCursor {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
UNION
  WITH 1 AS one WHERE 'Operation' IN $labels
  MATCH (n:Operation {id: $id})
  WHERE $scope_id IS NULL OR n.scope_id = $scope_id
  RETURN n
}
WITH DISTINCT n
RETURN labels(n) AS labels, n {.*, embedding: null, context_embedding: null} AS props, elementId(n) AS element_id
ORDER BY n.scope_id
LIMIT 20
