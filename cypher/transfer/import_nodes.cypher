// Purpose: write one batch of imported nodes: MERGE on the key label's id (Session on
//   (scope_id, id)), then replace the properties and add the labels, so re-importing the same
//   file changes nothing. Labels come from the format's allow-list.
// Params: $rows (list of maps: key (string, the key label), labels (list of strings), props (map))
// Returns: written (int)
UNWIND $rows AS row
CALL (row) {
  WITH row WHERE row.key = 'Session'
  MERGE (n:Session {scope_id: row.props.scope_id, id: row.props.id})
  SET n = row.props
  RETURN n
UNION
  WITH row WHERE row.key <> 'Session'
  MERGE (n:$(row.key) {id: row.props.id})
  SET n = row.props
  RETURN n
}
SET n:$(row.labels)
RETURN count(n) AS written
