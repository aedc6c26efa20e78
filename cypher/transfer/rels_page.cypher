// Purpose: the outgoing relationships of one page of a scope's nodes with a given key label
//   (ordered by id after a cursor) whose other end is in the same scope. Every start node of the
//   page yields one row; rows of nodes without such relationships have a null type.
//   Neo4j 5.26 plans a dynamic label ($(...)) in MATCH or MERGE as a scan of every node, so
//   each key label of the export format's allow-list has its own branch (an index seek).
// Params: $label (string), $scope_id (string), $after (string: the last start id of the previous
//   page, '' for the first), $limit (int: start nodes per page)
// Returns: cursor (string: the start node's id), start_labels (list of strings), type (string or
//   null), props (map or null), end_labels (list of strings or null), end_id (string or null),
//   end_scope (string or null)
CALL () {
  WITH 1 AS one WHERE $label = 'Entry'
  MATCH (a:Entry)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Entity'
  MATCH (a:Entity)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Identifier'
  MATCH (a:Identifier)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Marker'
  MATCH (a:Marker)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Topic'
  MATCH (a:Topic)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Session'
  MATCH (a:Session)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Claim'
  MATCH (a:Claim)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Relation'
  MATCH (a:Relation)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Collection'
  MATCH (a:Collection)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Document'
  MATCH (a:Document)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Chunk'
  MATCH (a:Chunk)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'PipelineRun'
  MATCH (a:PipelineRun)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'AccessEvent'
  MATCH (a:AccessEvent)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'LinkSuggestion'
  MATCH (a:LinkSuggestion)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Reflection'
  MATCH (a:Reflection)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'LearnerCursor'
  MATCH (a:LearnerCursor)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
UNION
  WITH 1 AS one WHERE $label = 'Operation'
  MATCH (a:Operation)
  WHERE a.scope_id = $scope_id AND a.id > $after
  RETURN a ORDER BY a.id LIMIT $limit
}
WITH a ORDER BY a.id LIMIT $limit
OPTIONAL MATCH (a)-[r]->(b)
WHERE b.scope_id = $scope_id
RETURN a.id AS cursor, labels(a) AS start_labels, type(r) AS type, properties(r) AS props,
       labels(b) AS end_labels, b.id AS end_id, b.scope_id AS end_scope
ORDER BY a.id, type(r), b.id
