// Purpose: retract chunks (removed from their document, or with the document): their mentions
//   (entity mention counts drop), their relation evidence and the chunks themselves; returns
//   the entities and relations they touched so a prune can drop what has no support left.
// Params: $scope_id (string), $ids (list of strings: chunk ids)
// Returns: entity_ids (list of strings), relation_ids (list of strings), removed (int)
UNWIND $ids AS cid
MATCH (c:Chunk {id: cid, scope_id: $scope_id})
OPTIONAL MATCH (c)-[:MENTIONS]->(e:Entity)
OPTIONAL MATCH (r:Relation)-[:EVIDENCED_BY]->(c)
WITH c, collect(DISTINCT e.id) AS ents, collect(DISTINCT r.id) AS rels
DETACH DELETE c
WITH collect(ents) AS es, collect(rels) AS rs, count(*) AS removed
RETURN reduce(a = [], x IN es | a + x) AS entity_ids,
       reduce(a = [], x IN rs | a + x) AS relation_ids, removed
