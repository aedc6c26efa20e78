// Purpose: a session and its turns in order (the input of the session index).
// Params: $session_id (string), $scope_id (string)
// Returns: session (map, no embedding), turns (list of maps: id, role, speaker, text, at),
//   user_vectors (list of vectors: the first eight user turns' embeddings)
MATCH (s:Session {scope_id: $scope_id, id: $session_id})
WHERE s.scope_id = $scope_id
OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
WITH s, t ORDER BY t.seq
WITH s, collect(t) AS ts
RETURN s {.*, embedding: null} AS session,
       [x IN ts | {id: x.id, role: x.speaker_role, speaker: x.speaker, text: x.content,
                   at: x.valid_from}] AS turns,
       [x IN [y IN ts WHERE y.speaker_role = 'user'][..8] | x.embedding] AS user_vectors
