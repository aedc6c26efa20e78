// Purpose: delete for good every node of a dropped scope (its reserved id), with their
//   relationships. One branch per key label (an index seek on scope_id).
// Params: $scope_id (string: the reserved id of the dropped scope)
// Returns: deleted (int)
CALL () {
  MATCH (n:Entry) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Entity) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Identifier) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Marker) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Topic) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Session) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Claim) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Relation) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Collection) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Document) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Chunk) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:PipelineRun) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:AccessEvent) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:LinkSuggestion) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Reflection) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:LearnerCursor) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
UNION ALL
  MATCH (n:Operation) WHERE n.scope_id = $scope_id
  DETACH DELETE n
  RETURN count(*) AS c
}
RETURN sum(c) AS deleted
