// Purpose: move every node of a scope to another scope id (a scope drop hides the scope under
//   a reserved id; its undo moves it back), in the caller's transaction. One branch per key
//   label (an index seek on scope_id; a dynamic label would scan every node); UNION ALL, as two
//   labels with the same count must both be summed.
// Params: $source (string), $target (string)
// Returns: moved (int)
CALL () {
  MATCH (n:Entry) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Entity) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Identifier) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Marker) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Topic) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Session) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Claim) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Relation) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Collection) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Document) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Chunk) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:PipelineRun) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:AccessEvent) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:LinkSuggestion) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Reflection) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:LearnerCursor) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
UNION ALL
  MATCH (n:Operation) WHERE n.scope_id = $source
  SET n.scope_id = $target
  RETURN count(n) AS c
}
RETURN sum(c) AS moved
