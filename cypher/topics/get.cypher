// Purpose: one topic of a scope, found by its id or its label, with its digest and its current
//   members (most central first) and their content hashes for the staleness check.
// Params: $scope_id (string), $topic (string: id or label)
// Returns: topic (map: every property but the embedding), members (list of maps: id, kind,
//   title, confidence, content_hash, live, snippet)
MATCH (t:Topic)
WHERE t.scope_id = $scope_id AND (t.id = $topic OR t.label = $topic)
CALL (t) {
  MATCH (m)-[r:IN_TOPIC]->(t)
  WHERE m.scope_id = $scope_id AND (m:Entry OR m:Document)
  WITH m, r ORDER BY r.confidence DESC, m.id
  RETURN collect({
    id: m.id,
    kind: CASE WHEN m:Document THEN 'document' ELSE 'entry' END,
    title: m.title,
    confidence: r.confidence,
    content_hash: m.content_hash,
    live: CASE WHEN m:Document THEN m.status = 'ready' AND m.soft_deleted_at IS NULL
               ELSE m.soft_deleted_at IS NULL AND m.retired_at IS NULL END,
    snippet: left(coalesce(m.content, m.title, ''), 200)
  }) AS members
}
RETURN t {.*, embedding: null} AS topic, members
ORDER BY t.id
