// Purpose: one session with its forks, continuations, cited identifiers and markers.
// Params: $session_id (string), $scope_id (string)
// Returns: session (map, no embedding), forks (list of strings), continues (list of strings),
//   continued_by (list of strings), identifiers (list of maps: namespace, value, count), markers
//   (list of maps: kind, value, count), entries (list of strings: entries learned from it)
MATCH (s:Session {scope_id: $scope_id, id: $session_id})
WHERE s.scope_id = $scope_id
CALL (s) { OPTIONAL MATCH (f:Session)-[:FORKED_FROM]->(s) RETURN collect(f.id) AS forks }
CALL (s) { OPTIONAL MATCH (s)-[:CONTINUES]->(o:Session) RETURN collect(o.id) AS continues }
CALL (s) { OPTIONAL MATCH (o:Session)-[:CONTINUES]->(s) RETURN collect(o.id) AS continued_by }
CALL (s) {
  OPTIONAL MATCH (s)-[c:CITES]->(i:Identifier)
  WITH i, c ORDER BY c.count DESC
  RETURN [x IN collect({namespace: i.namespace, value: i.value, count: c.count})
          WHERE x.value IS NOT NULL] AS identifiers
}
CALL (s) {
  OPTIONAL MATCH (s)-[h:HAS_MARKER]->(m:Marker)
  WHERE m.kind <> 'term'
  RETURN [x IN collect({kind: m.kind, value: m.value, count: h.count})
          WHERE x.value IS NOT NULL] AS markers
}
CALL (s) {
  OPTIONAL MATCH (e:Entry)-[:FROM_SESSION]->(s)
  RETURN collect(e.id) AS entries
}
RETURN s {.*, embedding: null} AS session, forks, continues, continued_by, identifiers,
       markers, entries
