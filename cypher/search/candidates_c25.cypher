// Purpose: hybrid retrieval candidates for a scope: the top $k of the native vector index and the
//   (Neo4j 2026+: Cypher 25 SEARCH filters the vector index by scope, so other scopes never
//   crowd this one's nearest entries out of the top $k.)
//   top $k of the full-text index, merged per entry and filtered. The vector query is $vector, or
//   $vector_unnamed (the query with its $names replaced) when every one of the $names is a
//   speaker of the scope's hits for $vector. The full-text query ORs $terms,
//   leaving out the $names that are speakers of the scope's vector hits (a participant's name
//   says who, not what); $lucene (the same terms, all of them) when that leaves none, and no
//   full-text search when it is null. Scores: semantic is the raw cosine similarity to the query
//   vector (from the index for vector hits, computed for keyword-only hits); keyword is the
//   Lucene score (0 when the entry did not match the text).
//   When the query names short $time_windows ("four weeks ago", "on 8 May"), the $k_time turns
//   of the scope said inside them that are nearest to the query join the candidates too: a
//   question about a time is about what was said then, however it was worded.
//   Current entries only unless asked: not retired (superseded), not soft-deleted, valid now (an
//   entry whose valid_from is still ahead is not valid yet). Record time: with $as_of, what was
//   recorded and believed at that moment. Valid time: with $valid_at, what was true at that moment
//   (its valid_from, or its creation when it has none, at or before it; its valid_to after it;
//   an entry retired since counts, it was true then). Times compare with $valid_at, else
//   $as_of, else $now.
// Params: $vector (list of floats), $vector_unnamed (list of floats or null), $lucene (string or null), $terms (list of escaped lower-case words), $names (list of lower-case names), $k (int: hits per index), $scope_clause (string: the required-scope prefix of the full-text query, services/kernel/fulltext.py), $scope_id (string), $entry_types (list or null), $tags (list or null), $source_types (list or null), $created_after (datetime or null), $as_of (datetime or null), $valid_at (datetime or null), $kinds (list of 'entry'/'turn', or null: both), $time_windows (list of maps: start, end (datetimes); [] for none), $k_time (int: turns per search from the windows), $include_superseded (bool), $include_deleted (bool), $now (datetime), $feedback_k (int: how many of the nearest candidates make the feedback centroid; 0: none), $event_pattern (string: a Java regular expression of a whole text, services/search/signals.py EVENT_REPORT), $turn_context (float: the weight of a turn's context vector in its semantic score, 0: none), $want_text (bool: return a person's turn's text, for a question asking who or where, services/search/answers.py)
// Returns: one row: rows (a list of maps, one per candidate: a search reads hundreds, and one
//   list of plain maps decodes several times faster than as many records), each with id,
//   created_at, last_accessed_at (epoch milliseconds: the driver builds a DateTime in ~57 us),
//   half_life_days, access_count, emotional_valence, confidence, pinned, score (what fusion
//   needs), semantic (float: the cosine, mixed with the context vector's for a turn), keyword (float), vector_hit (bool), window (int: how many vector
//   hits the index gave before filtering; k means it may have more), speaker (string or null),
//   valid_from (epoch milliseconds or null), session_id (string or null: a turn's session),
//   length (int: characters of content), event (bool: a person's turn that reports something
//   that happened, $event_pattern), unnamed (bool: the scores are for $vector_unnamed),
//   role (string or null: a turn's speaker role, user/assistant/system), feedback (float: the
//   raw cosine similarity to the centroid of the $feedback_k candidates nearest the query, the
//   pseudo-relevance feedback signal; 0.0 when $feedback_k is 0), asks (bool: a person's turn
//   holding a question mark, services/search/answers.py question_seeds). Rows come nearest first (an entry
//   without a vector last).
CYPHER 25
CALL () {
  MATCH (node:Entry)
    SEARCH node IN (VECTOR INDEX entry_embedding FOR $vector
                    WHERE node.scope_id = $scope_id LIMIT $k) SCORE AS score
  RETURN collect({e: node, vhit: true, sem: 2 * score - 1, kw: 0.0}) AS vfound
}
WITH vfound, [x IN vfound WHERE x.e.scope_id = $scope_id AND x.e.speaker IS NOT NULL
              | split(toLower(x.e.speaker), ' ')[0]] AS speakers
WITH vfound, speakers, $vector_unnamed IS NOT NULL AND size($names) > 0
                       AND all(n IN $names WHERE n IN speakers) AS unnamed
CALL (unnamed) {
  WITH unnamed WHERE unnamed
  MATCH (node:Entry)
    SEARCH node IN (VECTOR INDEX entry_embedding FOR $vector_unnamed
                    WHERE node.scope_id = $scope_id LIMIT $k) SCORE AS score
  RETURN collect({e: node, vhit: true, sem: 2 * score - 1, kw: 0.0}) AS vfound2
}
WITH CASE WHEN unnamed THEN vfound2 ELSE vfound END AS vfound, unnamed,
     [w IN $terms WHERE NOT (w IN $names AND w IN speakers)] AS kept
WITH vfound, unnamed,
     CASE WHEN size(kept) > 0 THEN reduce(q = head(kept), w IN tail(kept) | q + ' ' + w)
          ELSE $lucene END AS q0
WITH vfound, unnamed,
     CASE WHEN q0 IS NULL THEN null
          ELSE $scope_clause + '(title:(' + q0 + ') content:(' + q0 + ') summary:(' + q0
               + ') description:(' + q0 + ') tags:(' + q0 + '))' END AS q
CALL (q) {
  WITH q WHERE q IS NOT NULL
  CALL db.index.fulltext.queryNodes('entry_text', q, {limit: $k}) YIELD node, score
  RETURN collect({e: node, vhit: false, sem: null, kw: score}) AS kfound
}
CALL (unnamed) {
  UNWIND $time_windows AS w
  MATCH (t:Turn)
  WHERE t.scope_id = $scope_id AND t.valid_from >= w.start AND t.valid_from < w.end
  WITH DISTINCT t
  WITH t, vector.similarity.cosine(t.embedding,
                                   CASE WHEN unnamed THEN $vector_unnamed ELSE $vector END) AS sim
  ORDER BY sim DESC
  LIMIT $k_time
  RETURN collect({e: t, vhit: false, sem: null, kw: 0.0}) AS tfound
}
WITH vfound + kfound + tfound AS found, size(vfound) AS window, unnamed
UNWIND found AS x
WITH window, unnamed, x.e AS e, max(x.kw) AS keyword, max(x.sem) AS sem,
     any(v IN collect(x.vhit) WHERE v) AS vector_hit
WHERE e.scope_id = $scope_id
  AND ($entry_types IS NULL OR e.entry_type IN $entry_types)
  AND ($tags IS NULL OR any(t IN coalesce(e.tags, []) WHERE t IN $tags))
  AND ($source_types IS NULL OR e.source_type IN $source_types)
  AND ($created_after IS NULL OR e.created_at >= $created_after)
  AND ($include_deleted OR e.soft_deleted_at IS NULL
       OR ($as_of IS NOT NULL AND e.soft_deleted_at > $as_of))
  AND ($as_of IS NULL OR e.created_at <= $as_of)
  AND ($kinds IS NULL OR (CASE WHEN e.entry_type = 'conversation_turn' THEN 'turn'
                                ELSE 'entry' END) IN $kinds)
  AND ($include_superseded
       OR (($valid_at IS NOT NULL OR e.retired_at IS NULL
            OR ($as_of IS NOT NULL AND e.retired_at > $as_of))
           AND coalesce(CASE WHEN $valid_at IS NULL THEN e.valid_from
                             ELSE coalesce(e.valid_from, e.created_at) END
                        <= coalesce($valid_at, $as_of, $now), true)
           AND (e.valid_to IS NULL OR e.valid_to > coalesce($valid_at, $as_of, $now))))
WITH e, coalesce(sem, 2 * vector.similarity.cosine(
         e.embedding, CASE WHEN unnamed THEN $vector_unnamed ELSE $vector END) - 1) AS sem,
     keyword, vector_hit, window, unnamed
// the context vector of a turn (the turn with the one before it) counts $turn_context in its
// semantic similarity while that turn is still the one before it (not after a forget)
WITH e, CASE WHEN $turn_context > 0 AND e.context_embedding IS NOT NULL
                  AND EXISTS { MATCH (p:Entry)-[:NEXT]->(e) WHERE p.id = e.context_of }
             THEN (sem + $turn_context * (2 * vector.similarity.cosine(e.context_embedding,
                   CASE WHEN unnamed THEN $vector_unnamed ELSE $vector END) - 1))
                  / (1 + $turn_context)
             ELSE sem END AS sem,
     keyword, vector_hit, window, unnamed
ORDER BY coalesce(sem, -2.0) DESC
WITH collect({e: e, sem: sem, keyword: keyword, vector_hit: vector_hit, window: window,
              unnamed: unnamed,
              person: e.speaker IS NOT NULL AND coalesce(e.speaker_role, '') <> 'assistant'}) AS cs
WITH cs, [c IN cs[0..$feedback_k] WHERE c.e.embedding IS NOT NULL | c.e.embedding] AS fb
WITH cs, CASE WHEN size(fb) = 0 THEN null
              ELSE reduce(acc = head(fb), v IN tail(fb) |
                          [i IN range(0, size(acc) - 1) | acc[i] + v[i]]) END AS centroid
RETURN [c IN cs | {id: c.e.id, created_at: c.e.created_at.epochMillis,
                   last_accessed_at: c.e.last_accessed_at.epochMillis,
                   half_life_days: c.e.half_life_days, access_count: c.e.access_count,
                   emotional_valence: c.e.emotional_valence, confidence: c.e.confidence,
                   pinned: c.e.pinned, score: c.e.score, semantic: c.sem,
                   feedback: CASE WHEN centroid IS NULL OR c.e.embedding IS NULL THEN 0.0
                                  ELSE 2 * vector.similarity.cosine(c.e.embedding, centroid) - 1
                             END,
                   keyword: c.keyword, vector_hit: c.vector_hit, window: c.window,
                   speaker: c.e.speaker, role: c.e.speaker_role,
                   valid_from: c.e.valid_from.epochMillis, session_id: c.e.session_id,
                   length: size(c.e.content), unnamed: c.unnamed,
                   text: CASE WHEN $want_text AND c.person THEN c.e.content END,
                   event: c.person AND c.e.content =~ $event_pattern,
                   asks: c.person AND c.e.content CONTAINS '?'}] AS rows
