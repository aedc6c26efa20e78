// Purpose: after evidence went away: a relation with no evidence left goes, the weights of the
//   others are their evidence counts, an entity nothing mentions, claims or relates any more goes,
//   and the mention counts of the rest are the sum of their mentions' counts.
// Params: $scope_id (string), $entity_ids (list of strings), $relation_ids (list of strings)
// Returns: relations_removed (int), entities_removed (int)
CALL (*) {
  UNWIND $relation_ids AS rid
  MATCH (r:Relation {id: rid, scope_id: $scope_id})
  OPTIONAL MATCH (r)-[ev:EVIDENCED_BY]->()
  WITH r, count(ev) AS n
  SET r.weight = n
  WITH r, n WHERE n = 0
  OPTIONAL MATCH (r)-[:SUBJECT|OBJECT]->(x:Entity)
  WITH r, collect(x.id) AS ends
  DETACH DELETE r
  RETURN count(*) AS relations_removed, reduce(a = [], e IN collect(ends) | a + e) AS freed
}
CALL (*) {
  UNWIND $entity_ids + freed AS eid
  WITH DISTINCT eid
  MATCH (e:Entity {id: eid, scope_id: $scope_id})
  OPTIONAL MATCH (e)<-[m:MENTIONS]-()
  WITH e, sum(coalesce(m.count, 1)) AS mentions
  SET e.mention_count = mentions
  WITH e WHERE NOT EXISTS { (e)<-[:MENTIONS|ABOUT|SUBJECT|OBJECT]-() }
  DETACH DELETE e
  RETURN count(*) AS entities_removed
}
RETURN relations_removed, entities_removed
