// Purpose: delete a document (its chunks are already retracted): the topics that included it are
//   marked stale, the entries it had superseded come back (retirement by it undone), its
//   pipeline runs go, and the document itself (DETACH: no access event keeps a reference).
// Params: $scope_id (string), $id (string), $now (datetime)
// Returns: topics_stale (int), entries_restored (int), runs_removed (int)
MATCH (d:Document {id: $id, scope_id: $scope_id})
CALL (d) {
  OPTIONAL MATCH (d)-[:IN_TOPIC]->(t:Topic)
  SET t.stale = true
  RETURN count(t) AS topics_stale
}
CALL (d) {
  OPTIONAL MATCH (d)-[s:SUPERSEDES]->(e:Entry)
  SET e.retired_at = null, e.retired_by = null, e.valid_to = null, e.updated_at = $now
  DELETE s
  RETURN count(e) AS entries_restored
}
CALL (d) {
  OPTIONAL MATCH (d)-[:HAS_RUN]->(r:PipelineRun)
  DETACH DELETE r
  RETURN count(r) AS runs_removed
}
DETACH DELETE d
RETURN topics_stale, entries_restored, runs_removed
