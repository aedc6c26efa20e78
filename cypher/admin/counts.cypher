// Purpose: node counts per label (for status and doctor output).
// Params: none
// Returns: label, count
CALL db.labels() YIELD label
CALL (label) {
  MATCH (n:$(label))
  RETURN count(n) AS count
}
RETURN label, count
ORDER BY label
