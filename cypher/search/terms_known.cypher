// Purpose: which of a query's full-text terms a scope holds at all, in its entries or its
//   document chunks: per term, one lookup of at most one node in each full-text index (the
//   scope is a required clause of each query). A question some of whose words the scope never
//   uses is about something it never talked about, and a keyword match on the words it shares
//   does not pass the relevance floor alone (services/search/floors.py, docs/search.md). A
//   word the analyzer drops (a stop word) leaves only the scope clause, and counts as held.
// Params: $queries (list of maps: term (string), entries (string: the term's Lucene query in
//   the scope's entry_text fields), chunks (string: the same in chunk_text;
//   services/kernel/fulltext.py in_scope))
// Returns: term (string), known (bool), one row per term.
UNWIND $queries AS x
CALL (x) {
  CALL db.index.fulltext.queryNodes('entry_text', x.entries, {limit: 1}) YIELD node
  RETURN count(node) AS in_entries
}
CALL (x) {
  CALL db.index.fulltext.queryNodes('chunk_text', x.chunks, {limit: 1}) YIELD node
  RETURN count(node) AS in_chunks
}
RETURN x.term AS term, in_entries + in_chunks > 0 AS known
