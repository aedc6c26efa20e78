// Purpose: undo step: put back the properties and labels a change altered on nodes it kept
//   (only those it altered: other changes made since stay).
// Params: $rows (list of maps: eid, set (map), unset (list of strings), add_labels (list of strings), drop_labels (list of strings))
// Returns: restored (int)
UNWIND $rows AS row
MATCH (n) WHERE elementId(n) = row.eid
SET n += row.set
FOREACH (k IN row.unset | SET n[k] = null)
SET n:$(row.add_labels)
REMOVE n:$(row.drop_labels)
RETURN count(*) AS restored
