// Purpose: the element ids of the nodes a destructive change starts from (its seeds), by key
//   label and id within one scope (element ids are stable inside the change's transaction).
// Params: $scope_id (string), $entry_ids (list of strings), $entity_ids (list of strings), $document_ids (list of strings), $topic_ids (list of strings)
// Returns: eid (string)
CALL () {
  MATCH (n:Entry) WHERE n.id IN $entry_ids AND n.scope_id = $scope_id RETURN n
  UNION
  MATCH (n:Entity) WHERE n.id IN $entity_ids AND n.scope_id = $scope_id RETURN n
  UNION
  MATCH (n:Document) WHERE n.id IN $document_ids AND n.scope_id = $scope_id RETURN n
  UNION
  MATCH (n:Topic) WHERE n.id IN $topic_ids AND n.scope_id = $scope_id RETURN n
}
RETURN elementId(n) AS eid
