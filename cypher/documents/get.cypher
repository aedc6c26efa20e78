// Purpose: one document of a scope with its chunk count, latest run and document-level relations.
// Params: $scope_id (string), $id (string)
// Returns: doc (map: properties without content or vector), similar (list of maps), sharing (list of maps), last_run (map or null)
MATCH (d:Document {id: $id, scope_id: $scope_id})
OPTIONAL MATCH (d)-[:HAS_RUN]->(r:PipelineRun)
WITH d, r ORDER BY r.started_at DESC
WITH d, head(collect(r)) AS last
CALL (d) {
  OPTIONAL MATCH (d)-[s:SIMILAR_TO]-(o:Document)
  WITH o, s ORDER BY s.score DESC
  RETURN [x IN collect({id: o.id, title: o.title, score: s.score}) WHERE x.id IS NOT NULL] AS similar
}
CALL (d) {
  OPTIONAL MATCH (d)-[s:SHARES_ENTITIES]-(o:Document)
  WITH o, s ORDER BY s.count DESC
  RETURN [x IN collect({id: o.id, title: o.title, count: s.count, names: s.names})
          WHERE x.id IS NOT NULL] AS sharing
}
RETURN d {.*, embedding: null} AS doc, similar, sharing,
       CASE WHEN last IS NULL THEN null ELSE last {.*} END AS last_run
