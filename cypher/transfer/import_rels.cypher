// Purpose: write one batch of imported relationships between nodes of the target scope: MERGE on
//   (start, type, end) and replace the properties, so re-importing changes nothing. Types and key
//   labels come from the format's allow-list; rows whose ends are missing are skipped. A new
//   relationship is marked (a property the SET of the exported properties removes) so the counts
//   tell new ones from those already there (and already there as exported), and each new or
//   changed one comes back with its properties before and after.
//   Neo4j 5.26 plans a dynamic label ($(...)) in MATCH or MERGE as a scan of every node, so
//   each key label of the export format's allow-list has its own branch (an index seek).
// Params: $scope_id (string), $rows (list of maps: type (string), start (map: label, id), end
//   (map: label, id), props (map))
// Returns: written (int), created (int: new relationships), unchanged (int: already there as
//   exported), changed (list of maps: type, start and end ([key label, id, scope_id]), before
//   (the properties before, null for a new relationship), after: what the batch's undo record
//   holds, so no capture of the ends' other relationships is needed)
UNWIND $rows AS row
CALL (row) {
    WITH row WHERE row.start.label = 'Entry'
    MATCH (a:Entry {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Entity'
    MATCH (a:Entity {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Identifier'
    MATCH (a:Identifier {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Marker'
    MATCH (a:Marker {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Topic'
    MATCH (a:Topic {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Session'
    MATCH (a:Session {scope_id: $scope_id, id: row.start.id})
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Claim'
    MATCH (a:Claim {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Relation'
    MATCH (a:Relation {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Collection'
    MATCH (a:Collection {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Document'
    MATCH (a:Document {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Chunk'
    MATCH (a:Chunk {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'PipelineRun'
    MATCH (a:PipelineRun {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'AccessEvent'
    MATCH (a:AccessEvent {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'LinkSuggestion'
    MATCH (a:LinkSuggestion {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Reflection'
    MATCH (a:Reflection {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'LearnerCursor'
    MATCH (a:LearnerCursor {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  UNION
    WITH row WHERE row.start.label = 'Operation'
    MATCH (a:Operation {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
}
CALL (row) {
    WITH row WHERE row.end.label = 'Entry'
    MATCH (b:Entry {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Entity'
    MATCH (b:Entity {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Identifier'
    MATCH (b:Identifier {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Marker'
    MATCH (b:Marker {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Topic'
    MATCH (b:Topic {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Session'
    MATCH (b:Session {scope_id: $scope_id, id: row.end.id})
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Claim'
    MATCH (b:Claim {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Relation'
    MATCH (b:Relation {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Collection'
    MATCH (b:Collection {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Document'
    MATCH (b:Document {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Chunk'
    MATCH (b:Chunk {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'PipelineRun'
    MATCH (b:PipelineRun {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'AccessEvent'
    MATCH (b:AccessEvent {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'LinkSuggestion'
    MATCH (b:LinkSuggestion {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Reflection'
    MATCH (b:Reflection {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'LearnerCursor'
    MATCH (b:LearnerCursor {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  UNION
    WITH row WHERE row.end.label = 'Operation'
    MATCH (b:Operation {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
}
MERGE (a)-[r:$(row.type)]->(b)
ON CREATE SET r._import_created = true
WITH row, a, b, r, r._import_created IS NOT NULL AS created, properties(r) AS old
WITH row, a, b, r, created, old, NOT created AND old = row.props AS same
SET r = row.props
RETURN count(r) AS written, count(CASE WHEN created THEN 1 END) AS created,
       count(CASE WHEN same THEN 1 END) AS unchanged,
       collect(CASE WHEN NOT same THEN {type: type(r),
                                        start: [row.start.label, a.id, a.scope_id],
                                        end: [row.end.label, b.id, b.scope_id],
                                        before: CASE WHEN created THEN null ELSE old END,
                                        after: properties(r)} END) AS changed
