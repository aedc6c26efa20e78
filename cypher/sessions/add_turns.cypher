// Purpose: create or extend a session and store turns as entries labelled Turn, linked HAS_TURN
//   and NEXT in order (idempotent per turn id: the entry id derives from scope, session and turn
//   id). A session id is unique within its scope. The session node is written first (its write
//   lock is held to the end of the transaction), so
//   concurrent writers to one session serialise; the last turn and the next seq are read after
//   that lock, inside this transaction, so NEXT never branches and no two turns share a seq.
//   Only rows whose entry does not exist yet get a seq and a place in the chain; s.next_seq
//   keeps the seq high-water mark, so a forgotten last turn's seq is never given again. The session's
//   index is marked stale (indexed_at = null) so the next index pass recomputes it.
// Params: $session (map: id, scope_id, owner_id, cwd, title, origin, git_branch, fork_marker,
//   parent_pointer, transcript_path, source_size, artifacts), $rows (list of maps: id, props),
//   $now (datetime)
// Returns: session_id (string), created (list of bools, one per row)
MERGE (s:Session {scope_id: $session.scope_id, id: $session.id})
  ON CREATE SET s.owner_id = $session.owner_id, s.created_at = $now, s.fork_marker = coalesce($session.fork_marker, false),
                s.turn_count = 0
SET s.cwd = coalesce($session.cwd, s.cwd), s.title = coalesce($session.title, s.title),
    s.origin = coalesce(s.origin, $session.origin),
    s.git_branch = coalesce(s.git_branch, $session.git_branch),
    s.parent_pointer = coalesce(s.parent_pointer, $session.parent_pointer),
    s.fork_marker = coalesce(s.fork_marker, false) OR coalesce($session.fork_marker, false),
    s.transcript_path = coalesce($session.transcript_path, s.transcript_path),
    s.source_size = coalesce($session.source_size, s.source_size),
    s.artifacts = coalesce($session.artifacts, s.artifacts),
    s.updated_at = $now, s.indexed_at = null
WITH s
CALL (s) {
  OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
  WITH s, t ORDER BY t.seq DESC
  WITH s, collect(t) AS ts
  WITH s, ts, CASE WHEN size(ts) = 0 THEN 0 ELSE coalesce(ts[0].seq, size(ts) - 1) + 1 END AS after
  RETURN CASE WHEN size(ts) = 0 THEN null ELSE ts[0].id END AS last_id,
         CASE WHEN coalesce(s.next_seq, 0) > after THEN s.next_seq ELSE after END AS next_seq
}
WITH s, last_id, next_seq,
     [row IN $rows WHERE NOT EXISTS { MATCH (:Entry {id: row.id}) } | row.id] AS fresh
SET s.next_seq = next_seq + size(fresh)
WITH s, last_id, next_seq, fresh
CALL (s, next_seq, fresh) {
  UNWIND range(0, size($rows) - 1) AS i
  WITH i, $rows[i] AS row
  MERGE (e:Entry {id: row.id})
    ON CREATE SET e += row.props, e:Turn, e.updated_at = row.props.created_at,
                  e.access_count = 0, e.confidence_state = 'active', e._created = true,
                  e.seq = next_seq + size([r IN $rows[0..i] WHERE r.id IN fresh])
  MERGE (s)-[:HAS_TURN]->(e)
  WITH i, e, coalesce(e._created, false) AS created
  REMOVE e._created
  RETURN collect(created) AS created
}
CALL (s, last_id, fresh) {
  WITH CASE WHEN last_id IS NULL THEN fresh ELSE [last_id] + fresh END AS chain
  UNWIND range(0, size(chain) - 2) AS i
  MATCH (a:Entry {id: chain[i]}), (b:Entry {id: chain[i + 1]})
  MERGE (a)-[:NEXT]->(b)
}
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  WITH s, t ORDER BY t.seq
  WITH s, collect(t) AS ts
  SET s.turn_count = size(ts),
      s.started_at = reduce(m = null, x IN ts | CASE WHEN m IS NULL OR x.valid_from < m
                                                  THEN x.valid_from ELSE m END),
      s.last_turn_at = reduce(m = null, x IN ts | CASE WHEN m IS NULL OR x.valid_from > m
                                                  THEN x.valid_from ELSE m END),
      s.initial_request = coalesce(s.initial_request,
                                   [x IN ts WHERE x.speaker_role = 'user' | x.content][0])
}
RETURN s.id AS session_id, created
