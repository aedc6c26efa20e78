// Purpose: the shortest chain of relations between two entities of a scope (at most 6 relations,
//   either direction), as alternating entity and relation steps.
// Params: $scope_id (string), $a (string), $b (string)
// Returns: nodes (list of maps: kind, id, name_or_predicate)
MATCH (a:Entity {id: $a, scope_id: $scope_id}), (b:Entity {id: $b, scope_id: $scope_id})
MATCH p = shortestPath((a)-[:SUBJECT|OBJECT*..12]-(b))
WHERE all(n IN nodes(p) WHERE n.scope_id = $scope_id)
RETURN [n IN nodes(p) | CASE WHEN n:Relation
          THEN {kind: 'relation', id: n.id, predicate: n.predicate, subject: n.subject,
                object: n.object, weight: n.weight}
          ELSE {kind: 'entity', id: n.id, name: n.name} END] AS nodes
