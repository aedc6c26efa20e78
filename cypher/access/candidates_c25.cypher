// Purpose: recommendation candidates for a profile vector in a scope: current entries (not
//   (Neo4j 2026+: Cypher 25 SEARCH filters both vector indexes by scope, and entries also by
//   retirement and deletion, inside the index.)
//   conversation turns) from the entry_embedding index, documents through their chunks in the
//   chunk_embedding index (top $k of each), and entries and documents in the profile's topics
//   ($topic_ids; a chunk in a topic brings its document). Items already accessed (by $owner_id
//   when given; a document counts as accessed when one of its chunks was) are left out.
// Params: $vector (list of floats), $k (int), $topic_ids (list of strings), $scope_id (string), $owner_id (string or null), $now (datetime)
// Returns: id, kind ('entry' or 'document'), title (string or null), content (string or null),
//   embedding (list of floats or null), semantic (float or null: cosine to the profile),
//   topic_ids (list of strings), window (int: vector hits before filtering)
CYPHER 25
CALL () {
  MATCH (node:Entry)
    SEARCH node IN (VECTOR INDEX entry_embedding FOR $vector
                    WHERE node.scope_id = $scope_id AND node.retired_at IS NULL
                      AND node.soft_deleted_at IS NULL
                    LIMIT $k) SCORE AS score
  RETURN node AS n, 2 * score - 1 AS sem, true AS vhit
  UNION ALL
  MATCH (node:Chunk)
    SEARCH node IN (VECTOR INDEX chunk_embedding FOR $vector
                    WHERE node.scope_id = $scope_id LIMIT $k) SCORE AS score
  MATCH (d:Document)-[:HAS_CHUNK]->(node)
  RETURN d AS n, 2 * score - 1 AS sem, true AS vhit
  UNION ALL
  UNWIND $topic_ids AS tid
  MATCH (t:Topic {id: tid})<-[:IN_TOPIC]-(m)
  WHERE t.scope_id = $scope_id AND m.scope_id = $scope_id
  OPTIONAL MATCH (dc:Document)-[:HAS_CHUNK]->(m)
  WITH coalesce(dc, m) AS n
  WHERE n:Entry OR n:Document
  RETURN n, 2 * vector.similarity.cosine(n.embedding, $vector) - 1 AS sem, false AS vhit
}
WITH collect({n: n, sem: sem, vhit: vhit}) AS found
WITH found, size([f IN found WHERE f.vhit]) AS window
UNWIND found AS f
WITH window, f.n AS n, max(f.sem) AS semantic
WHERE n.scope_id = $scope_id AND NOT n:Turn
  AND n.soft_deleted_at IS NULL AND n.retired_at IS NULL
  AND (n.valid_to IS NULL OR n.valid_to > $now)
  AND NOT EXISTS {
    MATCH (ev:AccessEvent)-[:ACCESSED]->(n)
    WHERE ev.scope_id = $scope_id AND ($owner_id IS NULL OR ev.owner_id = $owner_id)
  }
  AND NOT EXISTS {
    MATCH (ev:AccessEvent)-[:ACCESSED]->(:Chunk)<-[:HAS_CHUNK]-(n)
    WHERE ev.scope_id = $scope_id AND ($owner_id IS NULL OR ev.owner_id = $owner_id)
  }
OPTIONAL MATCH (n)-[:IN_TOPIC]->(t:Topic)
WHERE t.scope_id = $scope_id
WITH window, n, semantic, collect(DISTINCT t.id) AS topic_ids
RETURN n.id AS id, CASE WHEN n:Document THEN 'document' ELSE 'entry' END AS kind,
       n.title AS title, left(coalesce(n.content, n.summary, ''), 300) AS content,
       n.embedding AS embedding, semantic, topic_ids, window
