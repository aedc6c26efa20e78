// Purpose: write a document's chunks (new ones with their vectors; kept ones get their new
//   position, offsets and heading) and re-link the document's NEXT chain in `seq` order.
// Params: $scope_id (string), $document_id (string), $model (string), $now (datetime), $rows (list of maps: id, seq, text, heading, start_offset, end_offset, token_count, content_hash, embedding (list or null: kept chunks keep theirs))
// Returns: chunks (int)
MATCH (d:Document {id: $document_id, scope_id: $scope_id})
CALL (d) {
  UNWIND $rows AS row
  MERGE (c:Chunk {id: row.id})
    ON CREATE SET c.scope_id = $scope_id, c.document_id = d.id, c.created_at = $now,
                  c.owner_id = d.owner_id
  SET c.seq = row.seq, c.text = row.text, c.heading = row.heading,
      c.start_offset = row.start_offset, c.end_offset = row.end_offset,
      c.token_count = row.token_count, c.content_hash = row.content_hash
  FOREACH (_ IN CASE WHEN row.embedding IS NULL THEN [] ELSE [1] END |
    SET c.embedding = row.embedding, c.embedding_model = $model)
  MERGE (d)-[:HAS_CHUNK]->(c)
}
CALL (d) {
  MATCH (d)-[:HAS_CHUNK]->(:Chunk)-[n:NEXT]->(:Chunk)
  DELETE n
}
CALL (d) {
  MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
  WITH c ORDER BY c.seq
  WITH collect(c) AS cs
  UNWIND range(0, size(cs) - 2) AS i
  WITH cs[i] AS a, cs[i + 1] AS b
  CREATE (a)-[:NEXT]->(b)
}
MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
RETURN count(c) AS chunks
