// Purpose: relations among the given entities of a context pack: (:Relation)-[:SUBJECT]->(s) and
//   -[:OBJECT]->(o) with both ends in $entity_ids, same scope; with the evidence among the pack's
//   chosen items ($item_ids) and the total evidence count. Relations evidenced by chosen items
//   and of higher weight come first.
// Params: $entity_ids (list of strings), $item_ids (list of strings), $scope_id (string), $limit (int)
// Returns: id, predicate, weight (float or null), subject_id, subject, object_id, object,
//   evidence_in (list of chosen item ids), evidence (int)
UNWIND $entity_ids AS sid
MATCH (s:Entity {id: sid})<-[:SUBJECT]-(r:Relation)-[:OBJECT]->(o:Entity)
WHERE s.scope_id = $scope_id AND r.scope_id = $scope_id AND o.scope_id = $scope_id
  AND o.id IN $entity_ids
OPTIONAL MATCH (r)-[:EVIDENCED_BY]->(ev)
WHERE ev.scope_id = $scope_id
WITH r, s, o, collect(DISTINCT ev.id) AS evidence_ids
RETURN r.id AS id, r.predicate AS predicate, r.weight AS weight, s.id AS subject_id,
       s.name AS subject, o.id AS object_id, o.name AS object,
       [x IN evidence_ids WHERE x IN $item_ids] AS evidence_in, size(evidence_ids) AS evidence
ORDER BY size(evidence_in) DESC, coalesce(weight, 0.0) DESC, evidence DESC, id
LIMIT $limit
