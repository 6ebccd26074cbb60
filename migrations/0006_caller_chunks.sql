-- 0006: chunks the caller made, and text the caller handed over. A RAG team whose own splitter
-- made the chunks the model saw ingests them as they are (`ingest FILE --chunks CHUNKS.jsonl`,
-- Python's `ingest_text(..., chunks=[...])`): each chunk may carry the caller's id (e.g. a
-- vector-store id), by which `context --chunk` finds it. Such a chunking's spec is `caller`.
-- A document whose text was handed over as a string (Python's `ingest_text`) has no file to
-- re-extract: a sweep re-chunks and re-anchors it but never looks for a source.

ALTER TABLE chunks ADD COLUMN caller_id TEXT;   -- the caller's id of the chunk, NULL for ours
CREATE INDEX chunks_by_caller_id ON chunks(caller_id) WHERE caller_id IS NOT NULL;

-- Append-only: the latest row per document says where its text comes from now; no row is
-- `file` (the recorded source). Ingesting from a file again after text was handed over appends
-- `file`, and the other way round.
CREATE TABLE text_origins (
    id           INTEGER PRIMARY KEY,
    document_id  INTEGER NOT NULL REFERENCES documents(id),
    origin       TEXT NOT NULL CHECK (origin IN ('file', 'given')),
    created_at   TEXT NOT NULL
);
CREATE INDEX text_origins_by_document ON text_origins(document_id, id);
