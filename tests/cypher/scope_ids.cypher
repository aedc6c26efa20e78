// Purpose: the ids the undo property test picks from: every entry, the current ones (not soft
//   deleted) with their text, the entities and the documents of a scope.
// Params: $scope_id (string)
// Returns: entries (list of strings), current (list of strings), texts (list of strings), entities (list of strings), documents (list of strings)
CALL () {
  MATCH (e:Entry {scope_id: $scope_id})
  RETURN collect(e.id) AS entries,
         collect(CASE WHEN e.soft_deleted_at IS NULL THEN e.id END) AS current,
         collect(CASE WHEN e.soft_deleted_at IS NULL AND e.retired_at IS NULL
                      THEN toLower(e.content) END) AS texts
}
CALL () {
  MATCH (x:Entity {scope_id: $scope_id})
  RETURN collect(x.id) AS entities
}
CALL () {
  MATCH (d:Document {scope_id: $scope_id})
  RETURN collect(d.id) AS documents
}
RETURN entries, current, texts, entities, documents
