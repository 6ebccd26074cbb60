-- 0004: re-anchoring sweeps (issue 5). A sweep appends: one sweeps row per run, one anchors row
-- per citation whose status or span changed (the citation row, the original SourceRef, is never
-- modified), and one swept_documents row per document it brought up to date, which is how a
-- rerun after a crash, or a sweep with nothing changed, knows what is already done.

CREATE TABLE sweeps (
    id            INTEGER PRIMARY KEY,
    started_at    TEXT NOT NULL,
    finished_at   TEXT,                  -- NULL: the run was interrupted
    documents     INTEGER NOT NULL DEFAULT 0,
    changed       INTEGER NOT NULL DEFAULT 0,   -- documents re-extracted, re-chunked or re-anchored
    citations     INTEGER NOT NULL DEFAULT 0,   -- citations re-anchored
    intact        INTEGER NOT NULL DEFAULT 0,   -- current statuses over the whole store at the end
    moved         INTEGER NOT NULL DEFAULT 0,
    degraded      INTEGER NOT NULL DEFAULT 0,
    lost          INTEGER NOT NULL DEFAULT 0,
    seconds       REAL
);

CREATE TABLE anchors (
    id           INTEGER PRIMARY KEY,
    citation_id  INTEGER NOT NULL REFERENCES citations(id),
    sweep_id     INTEGER NOT NULL REFERENCES sweeps(id),
    revision     INTEGER NOT NULL,       -- the revision seq anchored against
    status       TEXT NOT NULL CHECK (status IN ('intact', 'moved', 'degraded', 'lost')),
    start_char   INTEGER NOT NULL,       -- for lost: the last known span, in `from_revision`
    end_char     INTEGER NOT NULL,
    from_revision INTEGER NOT NULL,      -- the revision the previous span indexed
    chunk_id     TEXT,                   -- the chunk holding the span; NULL when lost
    score        REAL NOT NULL,
    method       TEXT NOT NULL,          -- same-text, content-hash, exact, folded, diff, fuzzy, none
    reason       TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX anchors_by_citation ON anchors(citation_id, id);

CREATE TABLE swept_documents (
    id           INTEGER PRIMARY KEY,
    sweep_id     INTEGER NOT NULL REFERENCES sweeps(id),
    document_id  INTEGER NOT NULL REFERENCES documents(id),
    revision_id  INTEGER NOT NULL REFERENCES revisions(id),
    chunking_id  INTEGER NOT NULL REFERENCES chunkings(id)
);
CREATE INDEX swept_documents_by_document ON swept_documents(document_id, id);

-- For the sqlite3 shell: every citation's current state (its latest anchor, else as cited).
CREATE VIEW citation_status AS
SELECT c.citation_id, c.doc_id,
       COALESCE(a.status, 'intact') AS status,
       COALESCE(a.revision, c.revision) AS revision,
       COALESCE(a.start_char, c.start_char) AS start_char,
       COALESCE(a.end_char, c.end_char) AS end_char,
       COALESCE(a.chunk_id, c.chunk_id) AS chunk_id,
       a.method, a.reason
FROM citations c
LEFT JOIN anchors a ON a.id = (SELECT MAX(id) FROM anchors WHERE citation_id = c.id);
