// Purpose: the neighbours of some nodes (either direction), audit records excluded: one step of
//   the walk that finds what a destructive change may touch.
// Params: $eids (list of strings: element ids)
// Returns: eid (string), labels (list of strings)
MATCH (n)--(m)
WHERE elementId(n) IN $eids AND NOT m:Operation
RETURN DISTINCT elementId(m) AS eid, labels(m) AS labels
