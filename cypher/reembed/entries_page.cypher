// Purpose: the next entries (of one scope, or of all) without a vector of $model, with what is
//   embedded for them (title, description, content; a turn's speaker, and the turn before it
//   for its context vector); those done drop out, so a re-run resumes.
// Params: $scope_id (string or null), $model (string), $skip (list of strings: ids to pass over), $limit (int)
// Returns: id (string), scope_id (string), title, description, content, entry_type, speaker,
//   speaker_role, before_id, before_content, before_speaker, before_role (the turn before a
//   turn in its session; null for other entries and a first turn)
MATCH (e:Entry)
WHERE ($scope_id IS NULL OR e.scope_id = $scope_id) AND e.content IS NOT NULL
  AND (e.embedding IS NULL OR coalesce(e.embedding_model, '') <> $model)
  AND NOT e.id IN $skip
WITH e ORDER BY e.scope_id, e.id
LIMIT $limit
OPTIONAL CALL (e) {
  MATCH (p:Entry)-[:NEXT]->(e)
  RETURN p LIMIT 1
}
RETURN e.id AS id, e.scope_id AS scope_id, e.title AS title, e.description AS description,
       e.content AS content, e.entry_type AS entry_type, e.speaker AS speaker,
       e.speaker_role AS speaker_role, p.id AS before_id, p.content AS before_content,
       p.speaker AS before_speaker, p.speaker_role AS before_role
ORDER BY e.scope_id, e.id
