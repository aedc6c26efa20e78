// Purpose: a document replaces entries of its scope: each is retired (retired_at, retired_by =
//   the document, valid_to) with (Document)-[:SUPERSEDES]->(Entry); forgetting the document
//   brings them back. Entries already retired are left as they are.
// Params: $scope_id (string), $id (string), $entry_ids (list of strings), $now (datetime)
// Returns: id (string)
MATCH (d:Document {id: $id, scope_id: $scope_id})
UNWIND $entry_ids AS eid
MATCH (e:Entry {id: eid, scope_id: $scope_id})
WHERE e.retired_at IS NULL
MERGE (d)-[s:SUPERSEDES]->(e)
  ON CREATE SET s.created_at = $now, s.origin = 'document'
SET e.retired_at = $now, e.retired_by = d.id, e.valid_to = coalesce(e.valid_to, $now)
RETURN e.id AS id
