// Purpose: write one batch of imported relationships between nodes of the target scope: MERGE on
//   (start, type, end) and replace the properties, so re-importing changes nothing. Types and key
//   labels come from the format's allow-list; rows whose ends are missing are skipped.
// Params: $scope_id (string), $rows (list of maps: type (string), start (map: label, id), end
//   (map: label, id), props (map))
// Returns: written (int)
UNWIND $rows AS row
MATCH (a:$(row.start.label) {id: row.start.id})
WHERE a.scope_id = $scope_id
MATCH (b:$(row.end.label) {id: row.end.id})
WHERE b.scope_id = $scope_id
MERGE (a)-[r:$(row.type)]->(b)
SET r = row.props
RETURN count(r) AS written
