// Purpose: undo step: re-create the relationships a change deleted, with their properties
//   (element ids of both ends from changes/locate).
// Params: $rows (list of maps: type, a (string: element id), b (string: element id), props)
// Returns: created (int)
UNWIND $rows AS row
MATCH (a), (b) WHERE elementId(a) = row.a AND elementId(b) = row.b
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.props
RETURN count(*) AS created
