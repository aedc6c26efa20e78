// Purpose: what a session already holds before turns are added: its scope (null when it does not
//   exist), which of the given turn ids it has, its last turn (and what it says: the context of
//   the next turn added) and its turn count.
// Params: $session_id (string), $scope_id (string), $turn_ids (list of strings)
// Returns: scope_id (string or null), existing (list of strings), last_id (string or null),
//   last_content, last_speaker, last_role (strings or null), count (int)
OPTIONAL MATCH (s:Session {scope_id: $scope_id, id: $session_id})
OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
WITH s, t ORDER BY t.seq
WITH s, collect(t) AS ts
WITH s, ts, ts[-1] AS last
RETURN s.scope_id AS scope_id,
       [x IN ts WHERE x.source_id IN $turn_ids | x.source_id] AS existing,
       last.id AS last_id, last.content AS last_content, last.speaker AS last_speaker,
       last.speaker_role AS last_role, size(ts) AS count
