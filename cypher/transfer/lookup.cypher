// Purpose: where the nodes an import batch would write are now, in one read: every node with
//   the key label and id of a row (in any scope; a Session is keyed by (scope_id, id), so only the
//   target scope's). Rows held by another scope make the import refuse the batch (it never takes
//   another scope's node over); those already in the target scope are the batch's before-state
//   for its undo record. Key labels come from the format's allow-list.
//   Neo4j 5.26 plans a dynamic label ($(...)) in MATCH or MERGE as a scan of every node, so
//   each key label of the export format's allow-list has its own branch (an index seek).
// Params: $rows (list of maps: key (string, the key label), id (string)), $scope_id (string: the
//   import's target scope)
// Returns: label, id, scope_id (the scope that holds it), eid (its element id)
UNWIND $rows AS row
CALL (row) {
  WITH row WHERE row.key = 'Entry'
  MATCH (n:Entry {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Entity'
  MATCH (n:Entity {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Identifier'
  MATCH (n:Identifier {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Marker'
  MATCH (n:Marker {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Topic'
  MATCH (n:Topic {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Session'
  MATCH (n:Session {scope_id: $scope_id, id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Claim'
  MATCH (n:Claim {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Relation'
  MATCH (n:Relation {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Collection'
  MATCH (n:Collection {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Document'
  MATCH (n:Document {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Chunk'
  MATCH (n:Chunk {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'PipelineRun'
  MATCH (n:PipelineRun {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'AccessEvent'
  MATCH (n:AccessEvent {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'LinkSuggestion'
  MATCH (n:LinkSuggestion {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Reflection'
  MATCH (n:Reflection {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'LearnerCursor'
  MATCH (n:LearnerCursor {id: row.id})
  RETURN n
UNION
  WITH row WHERE row.key = 'Operation'
  MATCH (n:Operation {id: row.id})
  RETURN n
}
RETURN row.key AS label, row.id AS id, n.scope_id AS scope_id, elementId(n) AS eid
