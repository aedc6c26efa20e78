// Purpose: a document's chunks in order, with the entities each mentions.
// Params: $scope_id (string), $id (string)
// Returns: chunk (map: id, seq, heading, text, start_offset, end_offset, token_count, content_hash, entities (list of strings))
MATCH (d:Document {id: $id, scope_id: $scope_id})-[:HAS_CHUNK]->(c:Chunk)
OPTIONAL MATCH (c)-[:MENTIONS]->(e:Entity)
WITH c, collect(e.name) AS entities
ORDER BY c.seq
RETURN c {.id, .seq, .heading, .text, .start_offset, .end_offset, .token_count, .content_hash,
          entities: entities} AS chunk
