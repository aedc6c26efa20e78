// Purpose: an entity with its most frequent mentions (the chunk's document or the entry, with a
//   snippet) and its relations in both directions with their evidence counts.
// Params: $scope_id (string), $id (string), $limit (int)
// Returns: entity (map), mentions (list of maps: source_id, kind, title, document_id, seq, count, snippet), relations (list of maps: id, predicate, direction, other_id, other, weight)
MATCH (e:Entity {id: $id, scope_id: $scope_id})
CALL (e) {
  OPTIONAL MATCH (s)-[m:MENTIONS]->(e)
  OPTIONAL MATCH (d:Document)-[:HAS_CHUNK]->(s)
  WITH s, m, d ORDER BY m.count DESC, s.id LIMIT $limit
  RETURN [x IN collect(CASE WHEN s IS NULL THEN null ELSE {
    source_id: s.id, kind: CASE WHEN s:Chunk THEN 'chunk' ELSE 'entry' END,
    title: coalesce(d.title, s.title, left(s.content, 80)), document_id: d.id, seq: s.seq,
    count: m.count, snippet: m.snippet} END) WHERE x IS NOT NULL] AS mentions
}
CALL (e) {
  OPTIONAL MATCH (r:Relation)-[role:SUBJECT|OBJECT]->(e)
  OPTIONAL MATCH (r)-[:SUBJECT|OBJECT]->(o:Entity) WHERE o <> e
  WITH r, role, o ORDER BY r.weight DESC, r.id LIMIT $limit
  RETURN [x IN collect(CASE WHEN r IS NULL THEN null ELSE {
    id: r.id, predicate: r.predicate,
    direction: CASE WHEN type(role) = 'SUBJECT' THEN 'out' ELSE 'in' END,
    other_id: o.id, other: o.name, weight: r.weight} END) WHERE x IS NOT NULL] AS relations
}
RETURN e {.*, embedding: null} AS entity, mentions, relations
