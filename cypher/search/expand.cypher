// Purpose: the graph signal: entries within $hops knowledge edges of the seed hits (either
//   direction, edge weights multiplied, halved per extra hop) and entries that mention the same
//   entities (hub entities mentioned more than $max_fanout times carry no signal and are
//   skipped; at most 50 neighbours per seed and kind: the first 50 paths, and the 50 that share
//   the most entities, ties by id) and, for conversation turns between
//   people, the turns right before and after (NEXT; the turn after a question "answers" it and
//   gets the full seed relevance) and the speaker's reply to a follow-up question the other
//   asked about the seed ("We went to the memorial." - "How did the kids react?" - "They were
//   awestruck.": it "answers" that question with half the seed's relevance). A seed marked
//   asks_only (a question asked in the conversation that is like the query, chosen by meaning)
//   only lends its relevance to the turn right after it, which "answers" it. An assistant's
//   turn neither seeds nor receives this: in a
//   chat with an assistant every reply follows a request, so being next to one says nothing.
//   The same scope and currency filters as candidates. Each neighbour gets the best
//   seed relevance times its path factor, the relation it came by, and its cosine to the query
//   (for a turn, mixed with its context vector's as in candidates).
// Params: $seeds (list of maps: id, relevance, asks_only (bool)), $hops (int), $vector (list of floats), $scope_id (string), $include_superseded (bool), $include_deleted (bool), $as_of (datetime or null), $valid_at (datetime or null), $kinds (list of 'entry'/'turn', or null: both), $now (datetime), $limit (int), $max_fanout (int), $event_pattern (string: a Java regular expression of a whole text), $turn_context (float: the weight of a turn's context vector in its semantic score)
// Returns: id, created_at, last_accessed_at (epoch milliseconds), half_life_days, access_count, emotional_valence,
//   confidence, pinned, score, graph (float), via (string), semantic (float), speaker (string or
//   null), role (string or null: a turn's speaker role), valid_from (epoch milliseconds or null),
//   session_id (string or null), length (int: characters of content), event (bool: a person's
//   turn that reports something that happened, $event_pattern)
UNWIND $seeds AS seed
MATCH (h:Entry {id: seed.id})
CALL (h, seed) {
  MATCH p = (h)-[rels:LEADS_TO|SUPPORTS|CONTRADICTS|DERIVED_FROM|SUPERSEDES|RELATED_TO|REFERENCES|DEPENDS_ON|PART_OF|CAUSES*1..3]-(n:Entry)
  WHERE size(rels) <= $hops AND n <> h AND NOT seed.asks_only
  RETURN n, seed.relevance * reduce(w = 1.0, r IN rels | w * coalesce(r.weight, 1.0))
            * 0.5 ^ (size(rels) - 1) AS g,
         toLower(type(rels[0])) + ' ' + h.id AS via
  LIMIT 50
  UNION
  MATCH (h)-[:MENTIONS]->(ent:Entity)
  WHERE coalesce(ent.mention_count, 0) <= $max_fanout AND NOT seed.asks_only
  MATCH (ent)<-[:MENTIONS]-(n:Entry)
  WHERE n <> h
  WITH n, h, count(DISTINCT ent) AS shared
  WITH n, seed.relevance * 0.5 * CASE WHEN shared >= 3 THEN 1.0 ELSE shared / 3.0 END AS g,
       'shares ' + toString(shared) + ' entities with ' + h.id AS via
  RETURN n, g, via ORDER BY g DESC, n.id LIMIT 50
  UNION
  MATCH (h)-[r:NEXT]-(n:Entry)
  WHERE coalesce(h.speaker_role, '') <> 'assistant' AND coalesce(n.speaker_role, '') <> 'assistant'
  WITH h, n, seed, startNode(r) = h AND h.content CONTAINS '?' AS answers
  WHERE answers OR NOT seed.asks_only
  RETURN n, seed.relevance * CASE WHEN answers THEN 1.0 ELSE 0.5 END AS g,
         CASE WHEN answers THEN 'answers ' ELSE 'next to ' END + h.id AS via
  UNION
  MATCH (h)-[:NEXT]->(q:Entry)-[:NEXT]->(n:Entry)
  WHERE h.speaker IS NOT NULL AND n.speaker = h.speaker AND q.speaker <> h.speaker
    AND NOT seed.asks_only
    AND coalesce(h.speaker_role, '') <> 'assistant' AND coalesce(q.speaker_role, '') <> 'assistant'
    AND q.content CONTAINS '?'
  RETURN n, seed.relevance * 0.5 AS g, 'answers ' + q.id AS via
}
WITH n, g, via
WHERE n.scope_id = $scope_id
  AND ($include_deleted OR n.soft_deleted_at IS NULL
       OR ($as_of IS NOT NULL AND n.soft_deleted_at > $as_of))
  AND ($as_of IS NULL OR n.created_at <= $as_of)
  AND ($kinds IS NULL OR (CASE WHEN n.entry_type = 'conversation_turn' THEN 'turn'
                                ELSE 'entry' END) IN $kinds)
  AND ($include_superseded
       OR (($valid_at IS NOT NULL OR n.retired_at IS NULL
            OR ($as_of IS NOT NULL AND n.retired_at > $as_of))
           AND coalesce(CASE WHEN $valid_at IS NULL THEN n.valid_from
                             ELSE coalesce(n.valid_from, n.created_at) END
                        <= coalesce($valid_at, $as_of, $now), true)
           AND (n.valid_to IS NULL OR n.valid_to > coalesce($valid_at, $as_of, $now))))
WITH n, g, via ORDER BY g DESC, via
WITH n, collect(g)[0] AS graph, collect(via)[0] AS via
RETURN n.id AS id, n.created_at.epochMillis AS created_at,
       n.last_accessed_at.epochMillis AS last_accessed_at,
       n.half_life_days AS half_life_days, n.access_count AS access_count,
       n.emotional_valence AS emotional_valence, n.confidence AS confidence, n.pinned AS pinned,
       n.score AS score, graph, via, n.speaker AS speaker, n.speaker_role AS role,
       n.valid_from.epochMillis AS valid_from,
       n.session_id AS session_id,
       CASE WHEN $turn_context > 0 AND n.context_embedding IS NOT NULL
                 AND EXISTS { MATCH (p:Entry)-[:NEXT]->(n) WHERE p.id = n.context_of }
            THEN (2 * vector.similarity.cosine(n.embedding, $vector) - 1
                  + $turn_context * (2 * vector.similarity.cosine(n.context_embedding, $vector) - 1))
                 / (1 + $turn_context)
            ELSE 2 * vector.similarity.cosine(n.embedding, $vector) - 1 END AS semantic,
       size(n.content) AS length,
       n.speaker IS NOT NULL AND coalesce(n.speaker_role, '') <> 'assistant'
       AND n.content =~ $event_pattern AS event
ORDER BY graph DESC, id
LIMIT $limit
