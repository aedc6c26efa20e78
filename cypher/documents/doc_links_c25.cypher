// Purpose: refresh a document's document-level relations: SIMILAR_TO {score} to the most similar
//   (Neo4j 2026+: Cypher 25 SEARCH filters the document vector index by scope.)
//   documents of its scope (vector index over document vectors) and SHARES_ENTITIES {names,
//   count} to documents whose chunks mention at least $min_shared of the same entities.
// Params: $scope_id (string), $id (string), $k (int), $min_score (float), $min_shared (int)
// Returns: similar (int), sharing (int)
CYPHER 25
MATCH (d:Document {id: $id, scope_id: $scope_id})
CALL (d) {
  MATCH (d)-[x:SIMILAR_TO|SHARES_ENTITIES]-()
  DELETE x
}
CALL (d) {
  WITH d WHERE d.embedding IS NOT NULL
  MATCH (node:Document)
    SEARCH node IN (VECTOR INDEX document_embedding FOR d.embedding
                    WHERE node.scope_id = $scope_id LIMIT $k + 1) SCORE AS score
  WITH d, node, score
  WHERE node.scope_id = $scope_id AND node <> d AND score >= $min_score
  MERGE (d)-[s:SIMILAR_TO]->(node)
  SET s.score = score
  RETURN count(*) AS similar
}
CALL (d) {
  MATCH (d)-[:HAS_CHUNK]->(:Chunk)-[:MENTIONS]->(e:Entity)<-[:MENTIONS]-(:Chunk)<-[:HAS_CHUNK]-(o:Document)
  WHERE o <> d AND o.scope_id = $scope_id
  WITH d, o, collect(DISTINCT e.name) AS names
  WHERE size(names) >= $min_shared
  MERGE (d)-[s:SHARES_ENTITIES]->(o)
  SET s.names = names[..20], s.count = size(names)
  RETURN count(*) AS sharing
}
RETURN similar, sharing
