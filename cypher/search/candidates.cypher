// Purpose: hybrid retrieval candidates for a scope: the top $k of the native vector index and the
//   top $k of the full-text index (Lucene query $lucene, skipped when null), merged per entry and
//   filtered. Scores: semantic is the raw cosine similarity to the query vector (from the index
//   for vector hits, computed for keyword-only hits); keyword is the Lucene score (0 when the entry did not match the text).
//   Current entries only unless asked: not retired (superseded), not soft-deleted, valid now; with
//   $as_of, what was believed and valid at that moment.
// Params: $vector (list of floats), $lucene (string or null), $k (int), $scope_id (string), $entry_types (list or null), $tags (list or null), $source_types (list or null), $created_after (datetime or null), $as_of (datetime or null), $include_superseded (bool), $include_deleted (bool), $now (datetime)
// Returns: id, created_at, last_accessed_at, half_life_days, access_count, emotional_valence,
//   confidence, pinned, score (what fusion needs), semantic (float), keyword (float), vector_hit (bool),
//   window (int: how many vector hits the index gave before filtering; k means it may have more),
//   speaker (string or null), valid_from (datetime or null): for conversation turns
CALL () {
  CALL db.index.vector.queryNodes('entry_embedding', $k, $vector) YIELD node, score
  RETURN node AS e, true AS vhit, 2 * score - 1 AS sem, 0.0 AS kw
  UNION ALL
  WITH $lucene AS q WHERE q IS NOT NULL
  CALL db.index.fulltext.queryNodes('entry_text', q, {limit: $k}) YIELD node, score
  RETURN node AS e, false AS vhit, null AS sem, score AS kw
}
WITH collect({e: e, vhit: vhit, sem: sem, kw: kw}) AS found
WITH found, size([x IN found WHERE x.vhit]) AS window
UNWIND found AS x
WITH window, x.e AS e, max(x.kw) AS keyword, max(x.sem) AS sem,
     any(v IN collect(x.vhit) WHERE v) AS vector_hit
WHERE e.scope_id = $scope_id
  AND ($entry_types IS NULL OR e.entry_type IN $entry_types)
  AND ($tags IS NULL OR any(t IN coalesce(e.tags, []) WHERE t IN $tags))
  AND ($source_types IS NULL OR e.source_type IN $source_types)
  AND ($created_after IS NULL OR e.created_at >= $created_after)
  AND ($include_deleted OR e.soft_deleted_at IS NULL
       OR ($as_of IS NOT NULL AND e.soft_deleted_at > $as_of))
  AND (CASE WHEN $as_of IS NULL
         THEN ($include_superseded OR (e.retired_at IS NULL
               AND (e.valid_to IS NULL OR e.valid_to > $now)))
         ELSE e.created_at <= $as_of
              AND ($include_superseded OR ((e.retired_at IS NULL OR e.retired_at > $as_of)
                   AND (e.valid_from IS NULL OR e.valid_from <= $as_of)
                   AND (e.valid_to IS NULL OR e.valid_to > $as_of)))
       END)
RETURN e.id AS id, e.created_at AS created_at, e.last_accessed_at AS last_accessed_at,
       e.half_life_days AS half_life_days, e.access_count AS access_count,
       e.emotional_valence AS emotional_valence, e.confidence AS confidence, e.pinned AS pinned,
       e.score AS score,
       coalesce(sem, 2 * vector.similarity.cosine(e.embedding, $vector) - 1) AS semantic,
       keyword, vector_hit, window, e.speaker AS speaker, e.valid_from AS valid_from
