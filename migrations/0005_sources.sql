-- 0005: a document knows how to re-extract itself, and the nightly job says what it did (issue 9).
-- Before this, `documents.source` was the path as first given (relative to wherever `ingest`
-- ran), command extractors were not stored at all, and a sweep re-read every file. Now each
-- document has an append-only history of its sources (the latest row is where it lives and how
-- it is extracted), of its extractions (the latest row is the fingerprint a sweep compares the
-- file with, so an unchanged file is never read again), and of its state (active, missing,
-- retired). The sweeps row gets one counter per document outcome, bumped inside each
-- document's own transaction, so the counts add up and an interrupted sweep shows what it
-- committed. Nothing here is ever updated but the sweeps counters.

CREATE TABLE sources (
    id           INTEGER PRIMARY KEY,
    document_id  INTEGER NOT NULL REFERENCES documents(id),
    path         TEXT NOT NULL,          -- absolute, or relative to `base`
    base         TEXT NOT NULL CHECK (base IN ('absolute', 'config', 'cwd')),
                                         -- config: the folder of the citestore.toml that named it;
                                         -- cwd: the folder a sweep runs in (rows from before 0005)
    extractor    TEXT NOT NULL CHECK (extractor IN ('text', 'html', 'pdf', 'cmd')),
    command      TEXT,                   -- cmd: the --extract-cmd template; NULL before 0005
    version      TEXT,                   -- cmd: the --extract-version
    created_at   TEXT NOT NULL
);
CREATE INDEX sources_by_document ON sources(document_id, id);

CREATE TABLE extractions (
    id             INTEGER PRIMARY KEY,
    document_id    INTEGER NOT NULL REFERENCES documents(id),
    source_id      INTEGER NOT NULL REFERENCES sources(id),
    sweep_id       INTEGER REFERENCES sweeps(id),     -- NULL: by ingest
    size           INTEGER,                -- bytes; NULL when not known (rows from before 0005)
    mtime_ns       INTEGER,                -- modification time, ns since the epoch
    source_sha256  TEXT NOT NULL,          -- of the bytes read
    tool           TEXT NOT NULL,          -- what identifies the extractor without running it
    ran            INTEGER NOT NULL CHECK (ran IN (0, 1)),  -- 0: same bytes, the extractor was not run
    revision_id    INTEGER NOT NULL REFERENCES revisions(id),  -- the latest revision after it
    created_at     TEXT NOT NULL
);
CREATE INDEX extractions_by_document ON extractions(document_id, id);

CREATE TABLE document_states (
    id           INTEGER PRIMARY KEY,
    document_id  INTEGER NOT NULL REFERENCES documents(id),
    sweep_id     INTEGER REFERENCES sweeps(id),       -- NULL: by a command (retire, ingest)
    state        TEXT NOT NULL CHECK (state IN ('active', 'missing', 'retired')),
    reason       TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX document_states_by_document ON document_states(document_id, id);

-- Every document ingested before 0005: its source as stored (relative to the folder a sweep
-- runs in, as before), and the fingerprint of its latest revision (size and time unknown, so
-- the first sweep reads the file once and compares the bytes' hash).
INSERT INTO sources (document_id, path, base, extractor, command, version, created_at)
SELECT id, source, 'cwd',
       CASE WHEN extractor IN ('text', 'html', 'pdf') THEN extractor ELSE 'cmd' END,
       NULL, NULL, created_at
FROM documents;

INSERT INTO extractions (document_id, source_id, sweep_id, size, mtime_ns, source_sha256, tool,
                         ran, revision_id, created_at)
SELECT d.id, s.id, NULL, NULL, NULL, r.source_sha256, r.extractor, 1, r.id, r.created_at
FROM documents d
JOIN sources s ON s.document_id = d.id
JOIN revisions r ON r.document_id = d.id
    AND r.seq = (SELECT MAX(seq) FROM revisions WHERE document_id = d.id);

ALTER TABLE sweeps ADD COLUMN re_extracted INTEGER NOT NULL DEFAULT 0;  -- documents with a new revision
ALTER TABLE sweeps ADD COLUMN rechunked INTEGER NOT NULL DEFAULT 0;     -- else re-chunked
ALTER TABLE sweeps ADD COLUMN reanchored INTEGER NOT NULL DEFAULT 0;    -- else citations re-anchored
ALTER TABLE sweeps ADD COLUMN unchanged INTEGER NOT NULL DEFAULT 0;     -- else nothing to do
ALTER TABLE sweeps ADD COLUMN missing INTEGER NOT NULL DEFAULT 0;       -- source gone: citations lost
ALTER TABLE sweeps ADD COLUMN retired INTEGER NOT NULL DEFAULT 0;       -- retired: passed over
ALTER TABLE sweeps ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;        -- could not be swept
ALTER TABLE sweeps ADD COLUMN extractions INTEGER NOT NULL DEFAULT 0;   -- extractor runs
ALTER TABLE sweeps ADD COLUMN planned INTEGER;                          -- documents selected at start
