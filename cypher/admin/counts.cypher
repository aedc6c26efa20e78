// Purpose: node counts per label (for status and doctor output), in one pass over the nodes
//   (a dynamic label in MATCH is planned as a scan of every node, once per label).
// Params: none
// Returns: label, count
MATCH (n)
UNWIND labels(n) AS label
RETURN label, count(*) AS count
ORDER BY label
