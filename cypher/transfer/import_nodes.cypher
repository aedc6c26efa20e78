// Purpose: write one batch of imported nodes: MERGE on the key label's id (Session on
//   (scope_id, id)), then replace the properties and add the labels, so re-importing the same
//   file changes nothing; a node it creates is marked (a property the SET of the exported
//   properties removes) so the counts tell new nodes from those already there, and from those
//   already there exactly as exported. Labels come from the format's allow-list.
//   Neo4j 5.26 plans a dynamic label ($(...)) in MATCH or MERGE as a scan of every node, so
//   each key label of the export format's allow-list has its own branch (an index seek).
// Params: $rows (list of maps: key (string, the key label), labels (list of strings), props (map))
// Returns: written (int), created (int: new nodes), unchanged (int: already there as exported),
//   made (list of [element id, key label, id]: the nodes this batch created, for its undo record)
UNWIND $rows AS row
CALL (row) {
  WITH row WHERE row.key = 'Entry'
  MERGE (n:Entry {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Entity'
  MERGE (n:Entity {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Identifier'
  MERGE (n:Identifier {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Marker'
  MERGE (n:Marker {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Topic'
  MERGE (n:Topic {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Session'
  MERGE (n:Session {scope_id: row.props.scope_id, id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Claim'
  MERGE (n:Claim {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Relation'
  MERGE (n:Relation {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Collection'
  MERGE (n:Collection {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Document'
  MERGE (n:Document {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Chunk'
  MERGE (n:Chunk {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'PipelineRun'
  MERGE (n:PipelineRun {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'AccessEvent'
  MERGE (n:AccessEvent {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'LinkSuggestion'
  MERGE (n:LinkSuggestion {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Reflection'
  MERGE (n:Reflection {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'LearnerCursor'
  MERGE (n:LearnerCursor {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
UNION
  WITH row WHERE row.key = 'Operation'
  MERGE (n:Operation {id: row.props.id})
  ON CREATE SET n._import_created = true
  RETURN n
}
WITH row, n, n._import_created IS NOT NULL AS created
WITH row, n, created,
     NOT created AND properties(n) = row.props AND all(l IN row.labels WHERE l IN labels(n)) AS same
SET n = row.props
SET n:$(row.labels)
RETURN count(n) AS written, count(CASE WHEN created THEN 1 END) AS created,
       count(CASE WHEN same THEN 1 END) AS unchanged,
       collect(CASE WHEN created THEN [elementId(n), row.key, row.props.id] END) AS made
