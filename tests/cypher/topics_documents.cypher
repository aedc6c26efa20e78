// Purpose: tests: create ready documents with their chunks directly (the documents pipeline's
//   shape: Document -HAS_CHUNK-> Chunk), idempotently.
// Params: $scope_id (string), $owner_id (string), $model (string), $docs (list of maps: id, title, content_hash, embedding, chunks (list of maps: id, seq, heading, text, content_hash, embedding)))
// Returns: n (int)
UNWIND $docs AS d
MERGE (doc:Document {id: d.id})
SET doc.scope_id = $scope_id, doc.owner_id = $owner_id, doc.title = d.title,
    doc.content_hash = d.content_hash, doc.status = 'ready', doc.embedding = d.embedding,
    doc.embedding_model = $model
WITH doc, d
UNWIND d.chunks AS c
MERGE (ch:Chunk {id: c.id})
SET ch.scope_id = $scope_id, ch.document_id = doc.id, ch.seq = c.seq, ch.heading = c.heading,
    ch.text = c.text, ch.content_hash = c.content_hash, ch.embedding = c.embedding,
    ch.embedding_model = $model
MERGE (doc)-[:HAS_CHUNK]->(ch)
RETURN count(ch) AS n
