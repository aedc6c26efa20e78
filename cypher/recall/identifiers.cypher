// Purpose: the entropy scan: identifiers of a scope that match the recall's literals (by value,
//   or by file name for paths), with the sessions citing each and how often.
// Params: $scope_id (string), $values (list of strings), $names (list of strings)
// Returns: id (string), namespace (string), value (string), sessions (list of maps: id, count)
MATCH (n:Identifier)
WHERE (n.value IN $values OR n.name IN $names) AND n.scope_id = $scope_id
MATCH (s:Session)-[c:CITES]->(n)
RETURN n.id AS id, n.namespace AS namespace, n.value AS value,
       collect({id: s.id, count: c.count}) AS sessions
