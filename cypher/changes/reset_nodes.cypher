// Purpose: undo step: give nodes that a change deleted and then wrote anew (same key, another
//   node) back exactly the properties and labels they had before the change.
// Params: $rows (list of maps: eid, labels, props)
// Returns: reset (int)
UNWIND $rows AS row
MATCH (n) WHERE elementId(n) = row.eid
SET n = row.props, n:$(row.labels)
RETURN count(*) AS reset
