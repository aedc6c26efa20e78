// Purpose: undo step: delete relationships a change created (one per row, the one with the
//   recorded properties first), matched by type and both ends (element ids from changes/locate).
// Params: $rows (list of maps: type, a (string: element id), b (string: element id), props)
// Returns: dropped (int)
UNWIND $rows AS row
CALL (row) {
  MATCH (a)-[r]->(b)
  WHERE elementId(a) = row.a AND elementId(b) = row.b AND type(r) = row.type
  WITH r ORDER BY CASE WHEN properties(r) = row.props THEN 0 ELSE 1 END LIMIT 1
  DELETE r
  RETURN 1 AS one
}
RETURN count(*) AS dropped
