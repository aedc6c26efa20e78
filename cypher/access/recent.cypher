// Purpose: the newest access events of a scope (of $owner_id when given), each with the ids of
//   the items it still reaches, in rank order (deleted items are simply gone).
// Params: $scope_id (string), $owner_id (string or null), $limit (int)
// Returns: id, kind, at, owner_id, query, item_ids (list of strings)
MATCH (ev:AccessEvent)
WHERE ev.scope_id = $scope_id AND ($owner_id IS NULL OR ev.owner_id = $owner_id)
WITH ev
ORDER BY ev.at DESC, ev.id
LIMIT $limit
OPTIONAL MATCH (ev)-[a:ACCESSED]->(x)
WHERE x.scope_id = $scope_id
WITH ev, a, x
ORDER BY a.rank
WITH ev, collect(x.id) AS item_ids
RETURN ev.id AS id, ev.kind AS kind, ev.at AS at, ev.owner_id AS owner_id, ev.query AS query,
       item_ids
ORDER BY at DESC, id
