// Purpose: the items of a scope accessed since $since (by $owner_id when given), each with its
//   accesses (time, kind, rank), its embedding (a chunk without one falls back to its document's)
//   and the topics it belongs to (IN_TOPIC, same scope): the input of a decayed interest profile.
// Params: $scope_id (string), $owner_id (string or null), $since (datetime), $limit (int)
// Returns: id, labels (list of strings), title (string), embedding (list of floats or null),
//   events (list of maps: at, kind, rank), topics (list of maps: id, label)
MATCH (ev:AccessEvent)
WHERE ev.scope_id = $scope_id AND ev.at >= $since
  AND ($owner_id IS NULL OR ev.owner_id = $owner_id)
MATCH (ev)-[a:ACCESSED]->(x)
WHERE x.scope_id = $scope_id
WITH x, collect({at: ev.at, kind: ev.kind, rank: a.rank}) AS events
ORDER BY size(events) DESC, x.id
LIMIT $limit
OPTIONAL MATCH (d:Document)-[:HAS_CHUNK]->(x)
WHERE d.scope_id = $scope_id
OPTIONAL MATCH (x)-[:IN_TOPIC]->(t:Topic)
WHERE t.scope_id = $scope_id
WITH x, d, events, collect(DISTINCT t {.id, .label}) AS topics
RETURN x.id AS id, labels(x) AS labels,
       coalesce(x.title, CASE WHEN d IS NOT NULL THEN d.title + ' #' + toString(x.seq) END,
                x.name, left(coalesce(x.content, x.text, x.summary, x.initial_request, x.id), 80))
         AS title,
       coalesce(x.embedding, d.embedding) AS embedding, events, topics
