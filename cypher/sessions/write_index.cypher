// Purpose: store a session's recall index in one transaction: its derived properties (keywords,
//   topics, key utterances, decisions, summary, embedding), its CITES edges to Identifier nodes
//   (and those of its turns), its HAS_MARKER edges to Marker nodes (replacing the previous ones)
//   and CONTINUES edges to the earlier sessions of the scope it cites.
// Params: $session_id (string), $scope_id (string), $props (map), $identifiers (list of maps: id,
//   namespace, value, name, count), $turn_cites (list of maps: entry_id, id, count), $markers
//   (list of maps: id, kind, value, count), $continues (list of strings)
// Returns: id (string)
MATCH (s:Session {scope_id: $scope_id, id: $session_id})
WHERE s.scope_id = $scope_id
SET s += $props
WITH s
CALL (s) {
  MATCH (s)-[c:CITES|HAS_MARKER]->()
  DELETE c
}
CALL (s) {
  UNWIND $identifiers AS i
  MERGE (n:Identifier {id: i.id})
    ON CREATE SET n.scope_id = $scope_id, n.namespace = i.namespace, n.value = i.value,
                  n.name = i.name
  MERGE (s)-[c:CITES]->(n)
  SET c.count = i.count
}
CALL (s) {
  UNWIND $turn_cites AS tc
  MATCH (e:Turn {id: tc.entry_id}), (n:Identifier {id: tc.id})
  MERGE (e)-[c:CITES]->(n)
  SET c.count = tc.count
}
CALL (s) {
  UNWIND $markers AS m
  MERGE (n:Marker {id: m.id})
    ON CREATE SET n.scope_id = $scope_id, n.kind = m.kind, n.value = m.value
  MERGE (s)-[h:HAS_MARKER]->(n)
  SET h.count = m.count
}
CALL (s) {
  UNWIND $continues AS cid
  MATCH (o:Session {scope_id: $scope_id, id: cid})
  WHERE o.scope_id = $scope_id AND o <> s AND o.started_at <= s.started_at
  MERGE (s)-[:CONTINUES]->(o)
}
RETURN s.id AS id
