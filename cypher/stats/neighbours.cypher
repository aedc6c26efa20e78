// Purpose: the neighbourhood of one node: its relationships (either direction) with the other
//   node's labels, id and a caption, bounded, and the total number of relationships.
// Params: $element_id (string), $limit (int)
// Returns: total (int), neighbours (list of maps: type, outgoing, labels, id, scope_id, caption)
MATCH (n) WHERE elementId(n) = $element_id
CALL (n) {
  MATCH (n)-[r]-()
  RETURN count(r) AS total
}
CALL (n) {
  MATCH (n)-[r]-(m)
  WITH r, m, startNode(r) = n AS outgoing
  ORDER BY type(r), outgoing DESC, m.id
  LIMIT $limit
  RETURN collect({type: type(r), outgoing: outgoing, labels: labels(m), id: m.id,
                  scope_id: m.scope_id,
                  caption: coalesce(m.title, m.name, m.label, m.text, m.content, m.summary,
                                    m.initial_request, m.value, m.kind, m.predicate, '')})
         AS neighbours
}
RETURN total, neighbours
