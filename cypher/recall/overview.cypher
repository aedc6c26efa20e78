// Purpose: material for Socratic probes: the scope's sessions by month and by working
//   directory, and its most common topics, so a probe can offer concrete adjacent choices.
// Params: $scope_id (string)
// Returns: months (list of maps: month, n, titles), places (list of maps: cwd, n), topics (list of maps: topic, n)
CALL () {
  MATCH (s:Session) WHERE s.scope_id = $scope_id AND s.started_at IS NOT NULL
  WITH substring(toString(s.started_at), 0, 7) AS month, s ORDER BY s.started_at
  WITH month, count(s) AS n, collect(coalesce(s.topics[0], s.title, s.keywords[0]))[..4] AS titles
  ORDER BY month DESC
  RETURN collect({month: month, n: n, titles: titles})[..12] AS months
}
CALL () {
  MATCH (s:Session) WHERE s.scope_id = $scope_id AND s.cwd IS NOT NULL
  WITH s.cwd AS cwd, count(*) AS n ORDER BY n DESC
  RETURN collect({cwd: cwd, n: n})[..8] AS places
}
CALL () {
  MATCH (s:Session) WHERE s.scope_id = $scope_id
  UNWIND coalesce(s.topics, []) AS topic
  WITH topic, count(*) AS n ORDER BY n DESC, topic
  RETURN collect({topic: topic, n: n})[..12] AS topics
}
RETURN months, places, topics
