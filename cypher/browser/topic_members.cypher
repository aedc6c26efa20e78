// Purpose: Browser: a topic and its members (entries and documents IN_TOPIC), found by the
//   topic's id or its label.
// Params: $scope (string), $topic (string: id or label)
// Returns: p (member -> topic path)
MATCH (t:Topic {scope_id: $scope})
WHERE t.id = $topic OR t.label = $topic
MATCH p = (m)-[:IN_TOPIC]-(t)
RETURN p
LIMIT 300
