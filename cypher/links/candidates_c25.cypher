// Purpose: link candidates for memories: each one's nearest neighbours in the native vector index
//   (Neo4j 2026+: Cypher 25 SEARCH filters the vector index by scope, retirement and deletion.)
//   and its best full-text matches, in the same scope, not deleted or retired, and not already
//   linked to it in either direction by any relationship. Per candidate: cosine, Lucene score,
//   shared entities and the entity union (for a Jaccard), and its creation time. Reads only;
//   many memories per call, so a sweep costs one query per batch.
// Params: $rows (list of maps: id, lucene (string or null)), $scope_id (string), $k (int)
// Returns: source (string), id (string), title (string), content (string), created_at (datetime), semantic (float), keyword (float), shared (int), entity_union (int)
CYPHER 25
UNWIND $rows AS row
MATCH (m:Entry {id: row.id})
WHERE m.scope_id = $scope_id AND m.embedding IS NOT NULL
CALL (m, row) {
  MATCH (node:Entry)
    SEARCH node IN (VECTOR INDEX entry_embedding FOR m.embedding
                    WHERE node.scope_id = $scope_id AND node.retired_at IS NULL
                      AND node.soft_deleted_at IS NULL
                    LIMIT $k) SCORE AS score
  RETURN node AS c, 2 * score - 1 AS sem, 0.0 AS kw
  UNION ALL
  WITH row WHERE row.lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('entry_text', row.lucene, {limit: $k}) YIELD node, score
  RETURN node AS c, null AS sem, score AS kw
}
WITH m, c, max(sem) AS sem, max(kw) AS keyword
WHERE c <> m AND c.scope_id = $scope_id AND c.soft_deleted_at IS NULL AND c.retired_at IS NULL
  AND NOT EXISTS { (m)-[]-(c) }
OPTIONAL MATCH (m)-[:MENTIONS]->(ent:Entity)
WITH m, c, sem, keyword, collect(ent) AS mine
OPTIONAL MATCH (c)-[:MENTIONS]->(other:Entity)
WITH m, c, sem, keyword, mine, collect(other) AS theirs
RETURN m.id AS source, c.id AS id, c.title AS title, c.content AS content,
       c.created_at AS created_at,
       coalesce(sem, 2 * vector.similarity.cosine(m.embedding, c.embedding) - 1) AS semantic,
       keyword, size([x IN theirs WHERE x IN mine]) AS shared,
       size(mine) + size([x IN theirs WHERE NOT x IN mine]) AS entity_union
