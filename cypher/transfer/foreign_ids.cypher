// Purpose: which of the nodes an import batch would write already exist under another scope
//   (the import refuses to take them over). Key labels come from the format's allow-list.
// Params: $rows (list of maps: key (string, the key label), id (string), scope_id (string))
// Returns: label, id, scope_id (the scope that holds it)
UNWIND $rows AS row
CALL (row) {
  MATCH (n:$(row.key) {id: row.id})
  WHERE row.key <> 'Session' AND n.scope_id <> row.scope_id
  RETURN n.scope_id AS holder
}
RETURN row.key AS label, row.id AS id, holder AS scope_id
