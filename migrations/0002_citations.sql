-- 0002: citing a model's answer (issue 4). A context records which chunks a model was shown and
-- under which opaque labels; an answer is stored once per (context, content), so citing the same
-- answer twice stores nothing new; every evidence string gets a row whatever its verdict, and the
-- located ones become citations: the SourceRef, which later sweeps never modify (they append
-- anchors in their own table).

CREATE TABLE contexts (
    id          INTEGER PRIMARY KEY,
    context_id  TEXT NOT NULL UNIQUE,   -- 'ctx-' + 12 hex of SHA-256 over the chunk ids, in order
    created_at  TEXT NOT NULL
);

CREATE TABLE context_chunks (
    context_id  INTEGER NOT NULL REFERENCES contexts(id),
    ord         INTEGER NOT NULL,       -- retrieval order; the label does not reveal it
    label       TEXT NOT NULL,          -- short opaque label the model cites by
    chunk_row   INTEGER NOT NULL REFERENCES chunks(id),
    PRIMARY KEY (context_id, ord),
    UNIQUE (context_id, label)
);

CREATE TABLE answers (
    id             INTEGER PRIMARY KEY,
    context_id     INTEGER NOT NULL REFERENCES contexts(id),
    answer_sha256  TEXT NOT NULL,       -- of the answer's canonical JSON
    body           TEXT NOT NULL,       -- the answer as parsed, canonical JSON
    source         TEXT NOT NULL,       -- 'emit_answer' or 'anthropic'
    created_at     TEXT NOT NULL,
    UNIQUE (context_id, answer_sha256)
);

CREATE TABLE claims (
    id         INTEGER PRIMARY KEY,
    answer_id  INTEGER NOT NULL REFERENCES answers(id),
    ord        INTEGER NOT NULL,
    text       TEXT NOT NULL,
    uncited    INTEGER NOT NULL CHECK (uncited IN (0, 1)),  -- no evidence given: explicitly uncited
    UNIQUE (answer_id, ord)
);

-- The SourceRef (doc_id, content_hash, start_char, end_char, revision) plus what makes it
-- re-anchorable: the quote, the span's text, context either side. Never updated.
CREATE TABLE citations (
    id             INTEGER PRIMARY KEY,
    citation_id    TEXT NOT NULL UNIQUE,  -- public id: 'c-' + 12 hex
    claim_id       INTEGER NOT NULL REFERENCES claims(id),
    doc_id         TEXT NOT NULL,
    revision       INTEGER NOT NULL,
    content_hash   TEXT NOT NULL,         -- of the chunk cited from
    normaliser     TEXT NOT NULL,         -- version behind content_hash
    start_char     INTEGER NOT NULL,
    end_char       INTEGER NOT NULL,
    chunk_id       TEXT NOT NULL,         -- the chunk that holds the span
    repaired_from  TEXT,                  -- the chunk the model named, when it was wrong
    quote          TEXT NOT NULL,         -- as the model gave it
    span_text      TEXT NOT NULL,         -- the revision's text at [start_char, end_char)
    prefix         TEXT NOT NULL,
    suffix         TEXT NOT NULL,
    method         TEXT NOT NULL CHECK (method IN ('exact', 'fuzzy', 'review')),
    score          REAL NOT NULL,
    verdict        TEXT NOT NULL CHECK (verdict IN ('exact', 'fuzzy', 'review', 'repaired')),
    created_at     TEXT NOT NULL,
    CHECK (0 <= start_char AND start_char < end_char)
);
CREATE INDEX citations_by_doc ON citations(doc_id, revision);

CREATE TABLE evidence (
    id              INTEGER PRIMARY KEY,
    claim_id        INTEGER NOT NULL REFERENCES claims(id),
    ord             INTEGER NOT NULL,
    given_chunk_id  TEXT NOT NULL,        -- label or chunk id, as the model gave it
    quote           TEXT NOT NULL,
    verdict         TEXT NOT NULL CHECK (verdict IN ('exact', 'fuzzy', 'review', 'repaired',
                                                     'ambiguous', 'fabricated', 'unknown-chunk')),
    reason          TEXT,
    citation_id     INTEGER REFERENCES citations(id),
    UNIQUE (claim_id, ord)
);
