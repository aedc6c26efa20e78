// Purpose: document chunks for the one search over a scope: the top $k of the chunk_embedding
//   vector index and the top $k of the chunk_text full-text index (Lucene query $lucene, skipped
//   when null), merged per chunk, kept when the chunk and its document are in the scope and the
//   document is not soft-deleted (unless $include_deleted). Record time: with $as_of, only
//   documents ingested by then; valid time: with $valid_at, only documents ingested by then (a
//   document has no valid time of its own). semantic is the raw cosine to the query (computed for
//   keyword-only hits), keyword the Lucene score (0 when not matched).
// Params: $vector (list of floats), $lucene (string or null), $k (int), $scope_id (string), $as_of (datetime or null), $valid_at (datetime or null), $include_deleted (bool)
//   (Neo4j 2026+: Cypher 25 SEARCH filters the chunk vector index by scope.)
// Returns: id, seq (chunk index in the document), text, heading, document_id, document_title,
//   document_path, owner_id, created_at (epoch milliseconds), semantic (float), keyword (float)
CYPHER 25
CALL () {
  MATCH (node:Chunk)
    SEARCH node IN (VECTOR INDEX chunk_embedding FOR $vector
                    WHERE node.scope_id = $scope_id LIMIT $k) SCORE AS score
  RETURN node AS c, 2 * score - 1 AS sem, 0.0 AS kw
  UNION ALL
  WITH $lucene AS q WHERE q IS NOT NULL
  CALL db.index.fulltext.queryNodes('chunk_text', q, {limit: $k}) YIELD node, score
  RETURN node AS c, null AS sem, score AS kw
}
WITH c, max(kw) AS keyword, max(sem) AS sem
WHERE c.scope_id = $scope_id
MATCH (d:Document)-[:HAS_CHUNK]->(c)
WHERE d.scope_id = $scope_id
  AND ($include_deleted OR d.soft_deleted_at IS NULL)
  AND ($as_of IS NULL OR d.created_at <= $as_of)
  AND ($valid_at IS NULL OR d.created_at <= $valid_at)
RETURN c.id AS id, c.seq AS seq, c.text AS text, c.heading AS heading,
       d.id AS document_id, d.title AS document_title, d.path AS document_path,
       d.owner_id AS owner_id, d.created_at.epochMillis AS created_at,
       coalesce(sem, 2 * vector.similarity.cosine(c.embedding, $vector) - 1) AS semantic,
       coalesce(keyword, 0.0) AS keyword
