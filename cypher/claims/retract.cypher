// Purpose: retract what an entry asserted (before it is deleted): its claims go, entities lose
//   its mention, and an entity left with no mention, no claim and no relation pointing at it
//   ((:Relation)-[:SUBJECT|OBJECT]->(entity)) goes too.
// Params: $id (string)
// Returns: removed_entities (int)
MATCH (e:Entry {id: $id})
OPTIONAL MATCH (e)-[:ASSERTS]->(cl:Claim)
DETACH DELETE cl
WITH DISTINCT e
OPTIONAL MATCH (e)-[m:MENTIONS]->(ent:Entity)
SET ent.mention_count = coalesce(ent.mention_count, 1) - 1
DELETE m
WITH collect(DISTINCT ent) AS ents
UNWIND ents AS ent
WITH ent WHERE NOT (ent)<-[:MENTIONS|ABOUT]-() AND NOT (ent)<-[:SUBJECT|OBJECT]-(:Relation)
DETACH DELETE ent
RETURN count(*) AS removed_entities
