// Purpose: a session and its turns in order (the input of the session index).
// Params: $session_id (string), $scope_id (string)
// Returns: session (map, no embedding), turns (list of maps: id, role, speaker, text, at)
MATCH (s:Session {id: $session_id})
WHERE s.scope_id = $scope_id
OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
WITH s, t ORDER BY t.seq
RETURN s {.*, embedding: null} AS session,
       [x IN collect(t) | {id: x.id, role: x.speaker_role, speaker: x.speaker, text: x.content,
                           at: x.valid_from}] AS turns
