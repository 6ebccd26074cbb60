-- 0007: the shapes other tools speak (issue 14). An imported API citation's own location
-- (Anthropic's character, page, block or search-result location) is kept beside the evidence it
-- became, with whether our text agreed, so the API's pointer is never lost nor silently trusted;
-- a web search result points outside the store, so it is kept as an external citation of its
-- claim, never as a located one; and a sweep keeps the current anchor's own prefix/suffix, so an
-- export can give a W3C TextQuoteSelector for where a citation is now (NULL on anchors written
-- before this migration and on lost ones: the export computes them from the revision then).

CREATE TABLE evidence_locations (
    evidence_id  INTEGER PRIMARY KEY REFERENCES evidence(id),
    kind         TEXT NOT NULL,       -- char_location, page_location, content_block_location, search_result_location
    location     TEXT NOT NULL,       -- the API's citation object, as received (JSON)
    agreement    TEXT NOT NULL CHECK (agreement IN ('agrees', 'differs')),
    note         TEXT                 -- what differed, or why several places remained
);

CREATE TABLE external_citations (
    id          INTEGER PRIMARY KEY,
    claim_id    INTEGER NOT NULL REFERENCES claims(id),
    ord         INTEGER NOT NULL,
    kind        TEXT NOT NULL,        -- web_search_result_location
    url         TEXT,
    title       TEXT,
    cited_text  TEXT NOT NULL,
    location    TEXT NOT NULL,        -- the API's citation object, as received (JSON)
    UNIQUE (claim_id, ord)
);

ALTER TABLE anchors ADD COLUMN prefix TEXT;
ALTER TABLE anchors ADD COLUMN suffix TEXT;
