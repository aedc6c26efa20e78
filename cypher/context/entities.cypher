// Purpose: entities mentioned by the entries and chunks chosen for a context pack (same scope),
//   each with the chosen items that mention it and its mention count among them; entities
//   mentioned by more chosen items come first.
// Params: $entry_ids (list of strings), $chunk_ids (list of strings), $scope_id (string), $limit (int)
// Returns: id, name, entity_type, mentioned_in (list of item ids), mentions (int)
CALL () {
  UNWIND $entry_ids AS xid
  MATCH (x:Entry {id: xid})-[m:MENTIONS]->(ent:Entity)
  WHERE x.scope_id = $scope_id AND ent.scope_id = $scope_id
  RETURN ent, xid, coalesce(m.count, 1) AS cnt
  UNION ALL
  UNWIND $chunk_ids AS xid
  MATCH (x:Chunk {id: xid})-[m:MENTIONS]->(ent:Entity)
  WHERE x.scope_id = $scope_id AND ent.scope_id = $scope_id
  RETURN ent, xid, coalesce(m.count, 1) AS cnt
}
WITH ent, collect(DISTINCT xid) AS mentioned_in, sum(cnt) AS mentions
RETURN ent.id AS id, ent.name AS name, ent.entity_type AS entity_type, mentioned_in, mentions
ORDER BY size(mentioned_in) DESC, mentions DESC, name, id
LIMIT $limit
