// Purpose: retract the relation evidence an entry gave (before it is deleted): reified Relation
//   nodes lose their EVIDENCED_BY edge to it, a Relation left with no evidence goes, and an
//   Entity of such a relation left with no MENTIONS, no ABOUT and no relation pointing at it
//   ((:Relation)-[:SUBJECT|OBJECT]->(entity)) goes too.
// Params: $id (string)
// Returns: removed_relations (int), removed_entities (int)
MATCH (e:Entry {id: $id})
OPTIONAL MATCH (r:Relation)-[ev:EVIDENCED_BY]->(e)
DELETE ev
WITH collect(DISTINCT r) AS rels
CALL (rels) {
  UNWIND rels AS r
  WITH r WHERE NOT (r)-[:EVIDENCED_BY]->()
  OPTIONAL MATCH (r)-[:SUBJECT|OBJECT]->(ent:Entity)
  RETURN collect(DISTINCT r) AS dead, collect(DISTINCT ent) AS ents
}
FOREACH (r IN dead | DETACH DELETE r)
WITH size(dead) AS removed_relations, ents
CALL (ents) {
  UNWIND ents AS ent
  WITH ent WHERE NOT (ent)<-[:MENTIONS|ABOUT]-() AND NOT (ent)<-[:SUBJECT|OBJECT]-(:Relation)
  DETACH DELETE ent
  RETURN count(*) AS removed_entities
}
RETURN removed_relations, removed_entities
