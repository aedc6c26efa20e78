// Purpose: one hop of an undirected walk over relations: the entities related to any of $ids
//   (through a Relation node, either direction), with the relation that links them.
// Params: $scope_id (string), $ids (list of strings), $limit (int)
// Returns: from_id (string), id (string), name (string), entity_type (string), mention_count (int), predicate (string), direction (string), weight (int)
UNWIND $ids AS fid
MATCH (f:Entity {id: fid, scope_id: $scope_id})<-[r1:SUBJECT|OBJECT]-(r:Relation)-[r2:SUBJECT|OBJECT]->(x:Entity)
WHERE x <> f AND x.scope_id = $scope_id
RETURN f.id AS from_id, x.id AS id, x.name AS name, x.entity_type AS entity_type,
       x.mention_count AS mention_count, r.predicate AS predicate,
       CASE WHEN type(r1) = 'SUBJECT' THEN 'out' ELSE 'in' END AS direction, r.weight AS weight
ORDER BY r.weight DESC, x.mention_count DESC, x.id
LIMIT $limit
