// Purpose: undo step: re-create the nodes a change deleted, with their labels and properties
//   exactly (the caller skips those already there).
// Params: $rows (list of maps: labels, props)
// Returns: eid (string), id (string)
UNWIND $rows AS row
CREATE (n)
SET n = row.props, n:$(row.labels)
RETURN elementId(n) AS eid, n.id AS id
