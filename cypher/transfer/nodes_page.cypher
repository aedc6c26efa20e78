// Purpose: one page of a scope's nodes with a given key label, ordered by id after a cursor
//   (export streams a scope in pages). The label comes from the export format's allow-list.
//   Neo4j 5.26 plans a dynamic label ($(...)) in MATCH or MERGE as a scan of every node, so
//   each key label of the export format's allow-list has its own branch (an index seek).
// Params: $label (string), $scope_id (string), $after (string: the last id of the previous page,
//   '' for the first), $limit (int)
// Returns: labels (list of strings), props (map: every property, embeddings included)
CALL () {
  WITH 1 AS one WHERE $label = 'Entry'
  MATCH (n:Entry)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Entity'
  MATCH (n:Entity)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Identifier'
  MATCH (n:Identifier)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Marker'
  MATCH (n:Marker)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Topic'
  MATCH (n:Topic)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Session'
  MATCH (n:Session)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Claim'
  MATCH (n:Claim)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Relation'
  MATCH (n:Relation)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Collection'
  MATCH (n:Collection)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Document'
  MATCH (n:Document)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Chunk'
  MATCH (n:Chunk)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'PipelineRun'
  MATCH (n:PipelineRun)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'AccessEvent'
  MATCH (n:AccessEvent)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'LinkSuggestion'
  MATCH (n:LinkSuggestion)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Reflection'
  MATCH (n:Reflection)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'LearnerCursor'
  MATCH (n:LearnerCursor)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Operation'
  MATCH (n:Operation)
  WHERE n.scope_id = $scope_id AND n.id > $after
  RETURN n ORDER BY n.id LIMIT $limit
}
RETURN labels(n) AS labels, properties(n) AS props
ORDER BY n.id
LIMIT $limit
