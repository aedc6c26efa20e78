// Purpose: exact seeks for the contradiction candidate lookups: a claim is compared with claims
//   of its own predicate, so (scope, subject, predicate) and (scope, category, predicate) find
//   them without reading a common subject's or category's claims of other predicates ("tuesday"
//   as a status subject among 180k slot claims of a 1M store).
// Params: none
// Returns: nothing
CREATE INDEX claim_scope_subject_predicate IF NOT EXISTS FOR (n:Claim) ON (n.scope_id, n.subject_key, n.predicate);
CREATE INDEX claim_scope_category_predicate IF NOT EXISTS FOR (n:Claim) ON (n.scope_id, n.category, n.predicate);
