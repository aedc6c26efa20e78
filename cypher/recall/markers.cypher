// Purpose: the salience scan: the scope's markers that the recall also carries, with the
//   sessions holding each (and how often) and the marker's total uses in the scope.
// Params: $scope_id (string), $ids (list of strings)
// Returns: kind (string), value (string), sessions (list of maps: id, count), total (int)
MATCH (m:Marker)
WHERE m.id IN $ids AND m.scope_id = $scope_id
MATCH (s:Session)-[h:HAS_MARKER]->(m)
WITH m, collect({id: s.id, count: h.count}) AS sessions
RETURN m.kind AS kind, m.value AS value, sessions,
       reduce(t = 0, x IN sessions | t + x.count) AS total
