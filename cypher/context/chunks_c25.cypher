// Purpose: chunk candidates for a context pack: the top $k of the chunk_embedding vector index
//   (Neo4j 2026+: Cypher 25 SEARCH filters the chunk vector index by scope.)
//   and the top $k of the chunk_text full-text index (Lucene query $lucene, skipped when null),
//   merged per chunk, kept when the chunk and its document are in the scope (and the document
//   belongs to $owner_id when given, and is not soft-deleted). semantic is the cosine to the
//   query (computed for keyword-only hits), keyword the Lucene score (0 when not matched).
// Params: $vector (list of floats), $lucene (string or null), $k (int), $scope_id (string), $owner_id (string or null), $as_of (datetime or null: documents ingested by then), $valid_at (datetime or null: the same)
// Returns: id, seq, text, heading, document_id, document_title, semantic (float), keyword (float),
//   window (int: vector hits before filtering; k means the index may have more)
CYPHER 25
CALL () {
  MATCH (node:Chunk)
    SEARCH node IN (VECTOR INDEX chunk_embedding FOR $vector
                    WHERE node.scope_id = $scope_id LIMIT $k) SCORE AS score
  RETURN node AS c, true AS vhit, 2 * score - 1 AS sem, 0.0 AS kw
  UNION ALL
  WITH $lucene AS q WHERE q IS NOT NULL
  CALL db.index.fulltext.queryNodes('chunk_text', q, {limit: $k}) YIELD node, score
  RETURN node AS c, false AS vhit, null AS sem, score AS kw
}
WITH collect({c: c, vhit: vhit, sem: sem, kw: kw}) AS found
WITH found, size([x IN found WHERE x.vhit]) AS window
UNWIND found AS x
WITH window, x.c AS c, max(x.kw) AS keyword, max(x.sem) AS sem
WHERE c.scope_id = $scope_id
MATCH (d:Document)-[:HAS_CHUNK]->(c)
WHERE d.scope_id = $scope_id AND d.soft_deleted_at IS NULL
  AND ($owner_id IS NULL OR d.owner_id = $owner_id)
  AND ($as_of IS NULL OR d.created_at <= $as_of)
  AND ($valid_at IS NULL OR d.created_at <= $valid_at)
RETURN c.id AS id, c.seq AS seq, c.text AS text, c.heading AS heading,
       d.id AS document_id, d.title AS document_title,
       coalesce(sem, 2 * vector.similarity.cosine(c.embedding, $vector) - 1) AS semantic,
       coalesce(keyword, 0.0) AS keyword, window
