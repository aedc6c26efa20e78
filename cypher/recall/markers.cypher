// Purpose: the salience scan: the scope's markers that the recall also carries, with the
//   sessions holding each (and how often) and the marker's total uses. A marker held by more than
//   $max_sessions sessions says little: its sessions are returned only when they are already
//   candidates ($candidates), and coinage terms that common are skipped (they cannot be coinage).
// Params: $scope_id (string), $ids (list of strings), $candidates (list of strings), $max_sessions (int)
// Returns: kind (string), value (string), sessions (list of maps: id, count), total (int), degree (int)
MATCH (m:Marker)
WHERE m.id IN $ids AND m.scope_id = $scope_id
WITH m, COUNT { (m)<-[:HAS_MARKER]-() } AS degree
WHERE degree <= $max_sessions OR m.kind <> 'term'
CALL (m, degree) {
  MATCH (s:Session)-[h:HAS_MARKER]->(m)
  WHERE degree <= $max_sessions OR s.id IN $candidates
  RETURN collect({id: s.id, count: h.count}) AS sessions, sum(h.count) AS total
}
RETURN m.kind AS kind, m.value AS value, sessions, total, degree
