// Purpose: the neighbours of some nodes (either direction), audit records excluded: one step of
//   the walk that finds what a destructive change may touch. Access events are left out too: no
//   change alters one (only its ACCESSED edge to a deleted item goes, and that edge is captured
//   with the item), and a much-read entry has thousands, each with edges to other items.
// Params: $eids (list of strings: element ids)
// Returns: eid (string), labels (list of strings)
MATCH (n)--(m)
WHERE elementId(n) IN $eids AND NOT m:Operation AND NOT m:AccessEvent
RETURN DISTINCT elementId(m) AS eid, labels(m) AS labels
