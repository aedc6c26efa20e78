// Purpose: which of the nodes an import batch would write already exist under another scope
//   (the import refuses to take them over). Key labels come from the format's allow-list; a
//   Session is keyed by (scope_id, id), so it cannot be held by another scope.
//   Neo4j 5.26 plans a dynamic label ($(...)) in MATCH or MERGE as a scan of every node, so
//   each key label of the export format's allow-list has its own branch (an index seek).
// Params: $rows (list of maps: key (string, the key label), id (string), scope_id (string))
// Returns: label, id, scope_id (the scope that holds it)
UNWIND $rows AS row
CALL (row) {
  WITH row WHERE row.key = 'Entry'
  MATCH (n:Entry {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Entity'
  MATCH (n:Entity {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Identifier'
  MATCH (n:Identifier {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Marker'
  MATCH (n:Marker {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Topic'
  MATCH (n:Topic {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Claim'
  MATCH (n:Claim {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Relation'
  MATCH (n:Relation {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Collection'
  MATCH (n:Collection {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Document'
  MATCH (n:Document {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Chunk'
  MATCH (n:Chunk {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'PipelineRun'
  MATCH (n:PipelineRun {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'AccessEvent'
  MATCH (n:AccessEvent {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'LinkSuggestion'
  MATCH (n:LinkSuggestion {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Reflection'
  MATCH (n:Reflection {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'LearnerCursor'
  MATCH (n:LearnerCursor {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
UNION
  WITH row WHERE row.key = 'Operation'
  MATCH (n:Operation {id: row.id})
  WHERE n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
}
RETURN row.key AS label, row.id AS id, holder AS scope_id
