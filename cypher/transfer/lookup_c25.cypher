// Purpose: transfer/lookup on Neo4j 2026+: the same read, with the key label as a dynamic label
//   (Neo4j 2026 seeks the label's id index for it at run time), so one short statement replaces
//   a branch per key label: it plans in milliseconds where the branched form takes seconds on a
//   fresh server, and seeks as fast. A Session is keyed by (scope_id, id): only the target
//   scope's. Key labels come from the format's allow-list.
// Params: $rows (list of maps: key (string, the key label), id (string)), $scope_id (string: the
//   import's target scope)
// Returns: label, id, scope_id (the scope that holds it), eid (its element id)
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  WHEN row.key = 'Session' THEN {
    MATCH (n:Session {scope_id: $scope_id, id: row.id})
    RETURN n
  }
  ELSE {
    MATCH (n:$(row.key) {id: row.id})
    RETURN n
  }
}
RETURN row.key AS label, row.id AS id, n.scope_id AS scope_id, elementId(n) AS eid
