// Purpose: record one access (a view, a search or a recall) as an AccessEvent with an
//   ACCESSED {rank} edge to each item of the same scope named in $items (an Entry, a Document,
//   a Chunk or a Session, found by its indexed id). Items are referenced only by these edges, so
//   deleting an item leaves no dangling reference. Ids that match nothing in the scope get no
//   edge; the event is written either way (a search that found nothing is still a search).
// Params: $id (string), $scope_id (string), $owner_id (string or null), $kind (string), $at (datetime), $query (string or null), $items (list of maps: id, rank)
// Returns: id (string), at (datetime), linked (list of item ids that got an edge)
CREATE (ev:AccessEvent {id: $id, scope_id: $scope_id, owner_id: $owner_id, kind: $kind,
                        at: $at, query: $query})
WITH ev
CALL (ev) {
  UNWIND $items AS item
  CALL (item) {
    MATCH (x:Entry {id: item.id}) WHERE x.scope_id = $scope_id RETURN x
    UNION
    MATCH (x:Document {id: item.id}) WHERE x.scope_id = $scope_id RETURN x
    UNION
    MATCH (x:Chunk {id: item.id}) WHERE x.scope_id = $scope_id RETURN x
    UNION
    MATCH (x:Session {scope_id: $scope_id, id: item.id}) RETURN x
  }
  CREATE (ev)-[:ACCESSED {rank: item.rank}]->(x)
  RETURN collect(DISTINCT item.id) AS linked
}
RETURN ev.id AS id, ev.at AS at, linked
