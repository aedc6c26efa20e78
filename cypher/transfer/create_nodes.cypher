// Purpose: write the nodes of an import batch that its lookup found nowhere (each id once in the
//   batch): CREATE them with their properties and labels, without import_nodes' MERGE per key
//   label. The key constraints still refuse one that another transaction created in between (the
//   batch fails and nothing of it is written). Labels come from the format's allow-list.
// Params: $rows (list of maps: key (string, the key label), labels (list of strings), props (map))
// Returns: written (int), created (int: all of them), unchanged (int: none), made (list of
//   [element id, key label, id]: the nodes created, for the batch's undo record); the columns of
//   import_nodes
UNWIND $rows AS row
CREATE (n)
SET n = row.props
SET n:$(row.labels)
RETURN count(n) AS written, count(n) AS created, 0 AS unchanged,
       collect([elementId(n), row.key, row.props.id]) AS made
