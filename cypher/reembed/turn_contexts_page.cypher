// Purpose: the next turns (of one scope, or of all) after the id $after that have a vector of
//   $model but no context vector and may have one: a person's turn (not an assistant's) of at
//   most $max_chars characters with its speaker, after a person's turn (stores made before
//   context vectors existed). Paged by id, so each turn is offered once per run.
// Params: $scope_id (string or null), $model (string), $after (string: '' for the first page), $max_chars (int), $limit (int)
// Returns: id, scope_id, content, entry_type, speaker, speaker_role, before_id, before_content,
//   before_speaker, before_role (the turn before it in its session)
MATCH (e:Entry)
WHERE e:Turn AND e.id > $after AND ($scope_id IS NULL OR e.scope_id = $scope_id)
  AND e.context_embedding IS NULL AND e.content IS NOT NULL
  AND coalesce(e.embedding_model, '') = $model
  AND coalesce(e.speaker_role, '') <> 'assistant'
  AND size(coalesce(e.speaker, '') + ': ' + e.content) <= $max_chars
WITH e ORDER BY e.id
CALL (e) {
  MATCH (p:Entry)-[:NEXT]->(e)
  WHERE p.content IS NOT NULL AND coalesce(p.speaker_role, '') <> 'assistant'
  RETURN p LIMIT 1
}
WITH e, p LIMIT $limit
RETURN e.id AS id, e.scope_id AS scope_id, e.content AS content, e.entry_type AS entry_type,
       e.speaker AS speaker, e.speaker_role AS speaker_role, p.id AS before_id,
       p.content AS before_content, p.speaker AS before_speaker, p.speaker_role AS before_role
ORDER BY id
