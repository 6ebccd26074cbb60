-- 0001: the first schema. Documents, their revisions (the exact text citations point into) and
-- every chunking ever made of a revision. Citations, anchors, sweeps and verifications arrive in
-- their own later migrations. Offsets (start_char, end_char) are Unicode scalar values, half-open.

CREATE TABLE documents (
    id          INTEGER PRIMARY KEY,
    doc_id      TEXT NOT NULL UNIQUE,   -- stable id: path relative to the folder ingested, or as given
    source      TEXT NOT NULL,          -- where it was first ingested from (path or URI)
    extractor   TEXT NOT NULL,          -- configured extractor: text, html, pdf, cmd:NAME
    created_at  TEXT NOT NULL           -- RFC 3339 UTC
);

CREATE TABLE revisions (
    id             INTEGER PRIMARY KEY,
    document_id    INTEGER NOT NULL REFERENCES documents(id),
    seq            INTEGER NOT NULL CHECK (seq >= 1),  -- 1, 2, ... per document
    text           TEXT NOT NULL,      -- raw text after ingest-time repair (PDF only)
    text_sha256    TEXT NOT NULL,      -- hex SHA-256 of text; equal to the previous revision's = no new revision
    char_len       INTEGER NOT NULL,   -- length of text in chars
    source_sha256  TEXT NOT NULL,      -- hex SHA-256 of the source bytes, so a sweep can tell the file changed
    extractor      TEXT NOT NULL,      -- name@version that produced text
    normaliser     TEXT NOT NULL,      -- normaliser version of hashes made from this text ('v1')
    created_at     TEXT NOT NULL,
    UNIQUE (document_id, seq)
);

CREATE TABLE chunkings (
    id           INTEGER PRIMARY KEY,
    revision_id  INTEGER NOT NULL REFERENCES revisions(id),
    spec         TEXT NOT NULL,        -- chunker spec, e.g. paragraph:1500
    created_at   TEXT NOT NULL
);
CREATE INDEX chunkings_by_revision ON chunkings(revision_id);

CREATE TABLE chunks (
    id            INTEGER PRIMARY KEY,
    chunking_id   INTEGER NOT NULL REFERENCES chunkings(id),
    ord           INTEGER NOT NULL,    -- 0, 1, ... within the chunking
    chunk_id      TEXT NOT NULL,       -- {doc_id}@r{seq}#{start}-{end}
    start_char    INTEGER NOT NULL,
    end_char      INTEGER NOT NULL,
    content_hash  TEXT NOT NULL,       -- contentHash of the chunk text
    normaliser    TEXT NOT NULL,       -- version of the fold behind content_hash
    UNIQUE (chunking_id, ord),
    CHECK (0 <= start_char AND start_char < end_char)
);
CREATE INDEX chunks_by_chunk_id ON chunks(chunk_id);
CREATE INDEX chunks_by_content_hash ON chunks(content_hash);

-- For the sqlite3 shell: each document's latest revision, and that revision's latest chunking.
CREATE VIEW current_chunkings AS
SELECT d.doc_id, r.seq, r.id AS revision_id, c.id AS chunking_id, c.spec
FROM documents d
JOIN revisions r ON r.document_id = d.id
    AND r.seq = (SELECT MAX(seq) FROM revisions WHERE document_id = d.id)
LEFT JOIN chunkings c ON c.id = (SELECT MAX(id) FROM chunkings WHERE revision_id = r.id);
