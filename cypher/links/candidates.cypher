// Purpose: link candidates for memories: each one's nearest neighbours in the native vector index
//   and its best full-text matches, in the same scope, not deleted or retired, and not already
//   linked to it in either direction by any relationship. Per candidate: cosine, Lucene score,
//   shared entities and the entity union (for a Jaccard), and its creation time. Reads only;
//   many memories per call, so a sweep costs one query per batch.
// Params: $rows (list of maps: id, lucene (string or null)), $scope_id (string), $k (int)
// Returns: one row: rows (a list of maps, one per candidate, collected: it decodes in one piece),
//   each with source (string), id (string), title (string), content (string), created_at (int:
//   epoch microseconds, exact; no driver DateTime to build), semantic (float), keyword (float),
//   shared (int), entity_union (int)
UNWIND $rows AS row
MATCH (m:Entry {id: row.id})
WHERE m.scope_id = $scope_id AND m.embedding IS NOT NULL
CALL (m, row) {
  CALL db.index.vector.queryNodes('entry_embedding', $k, m.embedding) YIELD node, score
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
RETURN collect({source: m.id, id: c.id, title: c.title, content: c.content,
                created_at: c.created_at.epochSeconds * 1000000 + c.created_at.microsecond,
                semantic: coalesce(sem, 2 * vector.similarity.cosine(m.embedding, c.embedding) - 1),
                keyword: keyword, shared: size([x IN theirs WHERE x IN mine]),
                entity_union: size(mine) + size([x IN theirs WHERE NOT x IN mine])}) AS rows
