// Purpose: entries linked by a knowledge edge (either direction) to the entries chosen for a
//   context pack ($seeds: id and relevance), same scope, current (not retired, not soft-deleted,
//   valid at $now), owned by $owner_id when given, not already chosen ($exclude). Each keeps its
//   best link: seed relevance x edge weight.
// Params: $seeds (list of maps: id, relevance), $exclude (list of strings), $scope_id (string), $owner_id (string or null), $now (datetime), $limit (int)
// Returns: id, title, content, score (float), rel_type (string), via_id (string: the chosen entry),
//   outgoing (bool: the edge points from the chosen entry to this one)
UNWIND $seeds AS seed
MATCH (h:Entry {id: seed.id})-[rel:LEADS_TO|SUPPORTS|CONTRADICTS|DERIVED_FROM|SUPERSEDES|RELATED_TO|REFERENCES|DEPENDS_ON|PART_OF|CAUSES]-(n:Entry)
WHERE h.scope_id = $scope_id AND n.scope_id = $scope_id AND n <> h AND NOT n.id IN $exclude
  AND n.soft_deleted_at IS NULL AND n.retired_at IS NULL
  AND (n.valid_to IS NULL OR n.valid_to > $now)
  AND ($owner_id IS NULL OR n.owner_id = $owner_id)
WITH n, seed.relevance * coalesce(rel.weight, 1.0) AS g, type(rel) AS rtype, h.id AS via,
     startNode(rel) = h AS outgoing
ORDER BY g DESC, via
WITH n, collect({g: g, rtype: rtype, via: via, outgoing: outgoing})[0] AS best
RETURN n.id AS id, n.title AS title, n.content AS content, best.g AS score,
       best.rtype AS rel_type, best.via AS via_id, best.outgoing AS outgoing
ORDER BY score DESC, id
LIMIT $limit
