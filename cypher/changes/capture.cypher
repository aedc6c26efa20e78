// Purpose: the exact state of some nodes: labels and every property, and every relationship
//   touching them (type, both ends by key label, id and scope, and by element id, properties).
//   What a destructive change compares before and after to record its undo.
// Params: $eids (list of strings: element ids), $key_labels (list of strings)
// Returns: nodes (list of maps: eid, label, id, scope_id, labels, props), rels (list of maps: rid, type, start, end, a_eid, b_eid, props)
MATCH (n) WHERE elementId(n) IN $eids
WITH collect(n) AS ns
CALL (ns) {
  UNWIND ns AS n
  RETURN collect({eid: elementId(n), label: head([l IN labels(n) WHERE l IN $key_labels]),
                  id: n.id, scope_id: n.scope_id, labels: labels(n),
                  props: properties(n)}) AS nodes
}
CALL (ns) {
  UNWIND ns AS n
  MATCH (n)-[r]-()
  WITH DISTINCT r
  WITH r, startNode(r) AS a, endNode(r) AS b
  RETURN collect({rid: elementId(r), type: type(r),
                  start: [head([l IN labels(a) WHERE l IN $key_labels]), a.id, a.scope_id],
                  end: [head([l IN labels(b) WHERE l IN $key_labels]), b.id, b.scope_id],
                  a_eid: elementId(a), b_eid: elementId(b),
                  props: properties(r)}) AS rels
}
RETURN nodes, rels
