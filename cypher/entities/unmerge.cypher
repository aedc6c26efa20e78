// Purpose: undo a merge: re-create the absorbed entity from its recorded properties and move
//   back every edge the merge moved (those marked with the operation id), restoring counts and
//   aliases.
// Params: $scope_id (string), $keep (string), $absorbed (map: the absorbed entity's properties), $op (string)
// Returns: restored (int)
MATCH (k:Entity {id: $keep, scope_id: $scope_id})
MERGE (x:Entity {id: $absorbed.id})
SET x += $absorbed
WITH k, x
CALL (k, x) {
  MATCH (s)-[n:MENTIONS {merged_from: $op}]->(k)
  CREATE (s)-[m:MENTIONS]->(x)
  SET m = properties(n)
  REMOVE m.merged_from
  DELETE n
  RETURN count(*) AS a
}
CALL (k, x) {
  MATCH (s)-[n:MENTIONS {merged_in: $op}]->(k)
  CREATE (s)-[m:MENTIONS {count: n.merged_count}]->(x)
  SET n.count = n.count - n.merged_count
  REMOVE n.merged_in, n.merged_count
  RETURN count(*) AS b
}
CALL (k, x) {
  MATCH (s)-[n:ABOUT|SUBJECT|OBJECT {merged_from: $op}]->(k)
  WITH s, n, type(n) AS t
  CALL (s, x, t) {
    WITH s, x, t WHERE t = 'ABOUT' CREATE (s)-[:ABOUT]->(x)
    UNION
    WITH s, x, t WHERE t = 'SUBJECT' CREATE (s)-[:SUBJECT]->(x)
    UNION
    WITH s, x, t WHERE t = 'OBJECT' CREATE (s)-[:OBJECT]->(x)
  }
  DELETE n
  RETURN count(*) AS c
}
SET k.aliases = [a IN coalesce(k.aliases, []) WHERE a <> x.name]
WITH k, x, a + b + c AS restored
OPTIONAL MATCH (k)<-[m:MENTIONS]-()
WITH k, x, restored, sum(coalesce(m.count, 1)) AS n
SET k.mention_count = n
RETURN restored
