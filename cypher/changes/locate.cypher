// Purpose: undo step: the element ids of nodes named by key label, id and scope (those still
//   there). Neo4j 5.26 plans a dynamic label in MATCH as a scan of every node, so each key label
//   has its own branch (an index seek).
// Params: $rows (list of maps: label, id, scope_id)
// Returns: label (string), id (string), scope_id (string), eid (string)
UNWIND $rows AS row
CALL (row) {
  WITH row WHERE row.label = 'Entry'
  MATCH (n:Entry {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Entity'
  MATCH (n:Entity {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Identifier'
  MATCH (n:Identifier {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Marker'
  MATCH (n:Marker {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Topic'
  MATCH (n:Topic {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Session'
  MATCH (n:Session {scope_id: row.scope_id, id: row.id})
  RETURN n
UNION
  WITH row WHERE row.label = 'Claim'
  MATCH (n:Claim {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Relation'
  MATCH (n:Relation {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Collection'
  MATCH (n:Collection {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Document'
  MATCH (n:Document {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Chunk'
  MATCH (n:Chunk {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'PipelineRun'
  MATCH (n:PipelineRun {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'AccessEvent'
  MATCH (n:AccessEvent {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'LinkSuggestion'
  MATCH (n:LinkSuggestion {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Reflection'
  MATCH (n:Reflection {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'LearnerCursor'
  MATCH (n:LearnerCursor {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
UNION
  WITH row WHERE row.label = 'Operation'
  MATCH (n:Operation {id: row.id})
  WHERE n.scope_id = row.scope_id
  RETURN n
}
RETURN row.label AS label, row.id AS id, row.scope_id AS scope_id, elementId(n) AS eid
