// Purpose: store entity relations reified as Relation nodes (SUBJECT and OBJECT edges to the two
//   entities) with EVIDENCED_BY {snippet} to each supporting chunk or entry; a relation's weight
//   is its evidence count.
// Params: $scope_id (string), $now (datetime), $rows (list of maps: id, subject_id, object_id, predicate, source_id, snippet)
// Returns: relations (int)
UNWIND $rows AS row
MATCH (a:Entity {id: row.subject_id, scope_id: $scope_id})
MATCH (b:Entity {id: row.object_id, scope_id: $scope_id})
OPTIONAL MATCH (sc:Chunk {id: row.source_id, scope_id: $scope_id})
OPTIONAL MATCH (se:Entry {id: row.source_id, scope_id: $scope_id})
WITH *, coalesce(sc, se) AS s
WHERE s IS NOT NULL
MERGE (r:Relation {id: row.id})
  ON CREATE SET r.scope_id = $scope_id, r.predicate = row.predicate, r.created_at = $now,
                r.subject = a.name, r.object = b.name
MERGE (r)-[:SUBJECT]->(a)
MERGE (r)-[:OBJECT]->(b)
MERGE (r)-[ev:EVIDENCED_BY]->(s)
SET ev.snippet = row.snippet
WITH DISTINCT r
MATCH (r)-[ev:EVIDENCED_BY]->()
WITH r, count(ev) AS n
SET r.weight = n
RETURN count(r) AS relations
