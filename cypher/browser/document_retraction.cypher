// Purpose: Browser: what deleting a document would retract (invariant 1): its chunks, the
//   entities only it mentions, the relations only it evidences, and the topics it is in (they
//   would be marked stale). Reads only.
// Params: $scope (string), $document (string: the document's id)
// Returns: d (Document), chunks, orphan_entities, orphan_relations, topics (paths)
MATCH (d:Document {scope_id: $scope, id: $document})
OPTIONAL MATCH chunks = (d)-[:HAS_CHUNK]->(c:Chunk)
OPTIONAL MATCH orphan_entities = (c)-[:MENTIONS]->(en:Entity)
  WHERE NOT EXISTS {
    MATCH (en)<-[:MENTIONS]-(o)
    WHERE o <> d AND NOT (d)-[:HAS_CHUNK]->(o)
  }
OPTIONAL MATCH orphan_relations = (r:Relation)-[:EVIDENCED_BY]->(c)
  WHERE NOT EXISTS {
    MATCH (r)-[:EVIDENCED_BY]->(o)
    WHERE NOT (d)-[:HAS_CHUNK]->(o)
  }
OPTIONAL MATCH topics = (d)-[:IN_TOPIC]->(:Topic)
RETURN d, chunks, orphan_entities, orphan_relations, topics
