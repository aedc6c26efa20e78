// Purpose: documents whose derived data disagrees with them: a `ready` document whose
//   chunk_count differs from its chunks, a chunk whose document_id or scope is not its
//   document's, a NEXT chain of chunks that is not one path in seq order, a pipeline run held by
//   no document or collection, a relation without exactly one subject and one object, a mention
//   whose source is neither a chunk nor an entry.
// Params: $scope_id (string or null: every scope), $limit (int)
// Returns: kind (string), id (string), scope_id (string or null), detail (string)
CALL () {
  MATCH (d:Document)
  WHERE ($scope_id IS NULL OR d.scope_id = $scope_id) AND d.status = 'ready'
  WITH d, COUNT { (d)-[:HAS_CHUNK]->(:Chunk) } AS n
  WHERE n <> coalesce(d.chunk_count, -1)
  RETURN 'chunk_count' AS kind, d.id AS id, d.scope_id AS scope_id,
         'chunk_count ' + toString(d.chunk_count) + ' but ' + toString(n) + ' chunks' AS detail
  UNION ALL
  MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk)
  WHERE ($scope_id IS NULL OR d.scope_id = $scope_id)
    AND (c.document_id <> d.id OR c.scope_id <> d.scope_id)
  RETURN 'chunk_owner' AS kind, c.id AS id, c.scope_id AS scope_id,
         'held by ' + d.id + ' but says ' + coalesce(c.document_id, 'nothing') AS detail
  UNION ALL
  MATCH (d:Document)
  WHERE ($scope_id IS NULL OR d.scope_id = $scope_id)
  WITH d, COUNT { (d)-[:HAS_CHUNK]->(:Chunk) } AS n,
       COUNT { (d)-[:HAS_CHUNK]->(a:Chunk)-[:NEXT]->(b:Chunk)<-[:HAS_CHUNK]-(d)
               WHERE b.seq = a.seq + 1 } AS links
  WHERE n > 0 AND links <> n - 1
  RETURN 'chunk_chain' AS kind, d.id AS id, d.scope_id AS scope_id,
         toString(n) + ' chunks but ' + toString(links) + ' NEXT links in order' AS detail
  UNION ALL
  MATCH (r:PipelineRun)
  WHERE ($scope_id IS NULL OR r.scope_id = $scope_id)
    AND NOT EXISTS { (:Document)-[:HAS_RUN]->(r) } AND NOT EXISTS { (:Collection)-[:HAS_RUN]->(r) }
  RETURN 'orphan_run' AS kind, r.id AS id, r.scope_id AS scope_id,
         'no document or collection' AS detail
  UNION ALL
  MATCH (r:Relation)
  WHERE ($scope_id IS NULL OR r.scope_id = $scope_id)
    AND (COUNT { (r)-[:SUBJECT]->(:Entity) } <> 1 OR COUNT { (r)-[:OBJECT]->(:Entity) } <> 1)
  RETURN 'relation_ends' AS kind, r.id AS id, r.scope_id AS scope_id,
         'not one subject and one object' AS detail
  UNION ALL
  MATCH (s)-[:MENTIONS]->(e:Entity)
  WHERE ($scope_id IS NULL OR e.scope_id = $scope_id) AND NOT s:Chunk AND NOT s:Entry
  RETURN 'mention_source' AS kind, e.id AS id, e.scope_id AS scope_id,
         'mentioned by a ' + head(labels(s)) AS detail
}
RETURN kind, id, scope_id, detail
ORDER BY kind, id
LIMIT $limit
