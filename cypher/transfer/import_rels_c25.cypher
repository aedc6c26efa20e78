// Purpose: transfer/import_rels on Neo4j 2026+: the same MERGE, with each end found by its key
//   label as a dynamic label and the target scope (Neo4j 2026 seeks the label's id index, or
//   Session's (scope_id, id) index, at run time) instead of a branch per key label and end: one
//   short statement that plans in milliseconds (the branched form takes seconds on a fresh
//   server) and runs ~3x faster per batch. Types and key labels come from the format's
//   allow-list; rows whose ends are missing are skipped.
// Params: $scope_id (string), $rows (list of maps: type (string), start (map: label, id), end
//   (map: label, id), props (map))
// Returns: written (int), created (int: new relationships), unchanged (int: already there as
//   exported), changed (list of maps: type, start and end ([key label, id, scope_id]), before
//   (the properties before, null for a new relationship), after)
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  WHEN row.start.label = 'Session' THEN {
    MATCH (a:Session {scope_id: $scope_id, id: row.start.id})
    USING INDEX SEEK a:Session(scope_id, id)
    RETURN a
  }
  ELSE {
    MATCH (a:$(row.start.label) {id: row.start.id})
    WHERE a.scope_id = $scope_id
    RETURN a
  }
}
CALL (row) {
  WHEN row.end.label = 'Session' THEN {
    MATCH (b:Session {scope_id: $scope_id, id: row.end.id})
    USING INDEX SEEK b:Session(scope_id, id)
    RETURN b
  }
  ELSE {
    MATCH (b:$(row.end.label) {id: row.end.id})
    WHERE b.scope_id = $scope_id
    RETURN b
  }
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
