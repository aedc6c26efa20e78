// Purpose: transfer/import_nodes on Neo4j 2026+: the same MERGE, with the key label as a dynamic
//   label (Neo4j 2026 seeks the label's id index for it at run time) instead of a branch per key
//   label: one short statement, planned in milliseconds. Session is merged on (scope_id, id)
//   (a conditional subquery picks its branch per row, so each row seeks one index).
//   Labels come from the format's allow-list.
// Params: $rows (list of maps: key (string, the key label), labels (list of strings), props (map))
// Returns: written (int), created (int: new nodes), unchanged (int: already there as exported),
//   made (list of [element id, key label, id]: the nodes this batch created, for its undo record)
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  WHEN row.key = 'Session' THEN {
    MERGE (n:Session {scope_id: row.props.scope_id, id: row.props.id})
    ON CREATE SET n._import_created = true
    RETURN n
  }
  ELSE {
    MERGE (n:$(row.key) {id: row.props.id})
    ON CREATE SET n._import_created = true
    RETURN n
  }
}
WITH row, n, n._import_created IS NOT NULL AS created
WITH row, n, created,
     NOT created AND properties(n) = row.props AND all(l IN row.labels WHERE l IN labels(n)) AS same
SET n = row.props
SET n:$(row.labels)
RETURN count(n) AS written, count(CASE WHEN created THEN 1 END) AS created,
       count(CASE WHEN same THEN 1 END) AS unchanged,
       collect(CASE WHEN created THEN [elementId(n), row.key, row.props.id] END) AS made
