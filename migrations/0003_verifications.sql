-- 0003: verification (issue 6). One row per judgement of a claim, appended, never updated: the
-- latest row of a claim is its current verdict, earlier rows are its history. Claims whose
-- evidence was never located are recorded here too (verdict from the citing step, no judge).

CREATE TABLE verifications (
    id          INTEGER PRIMARY KEY,
    claim_id    INTEGER NOT NULL REFERENCES claims(id),
    judge       TEXT NOT NULL,          -- judge spec, e.g. command:./judge.py or openai:MODEL@URL; 'none'
    relation    TEXT CHECK (relation IN ('supports', 'contradicts', 'silent')),
    confidence  REAL CHECK (confidence BETWEEN 0 AND 1),
    verdict     TEXT NOT NULL CHECK (verdict IN ('supported', 'contradicted', 'unsupported',
                    'review', 'fabricated', 'ambiguous', 'unknown-chunk', 'uncited',
                    'unjudged', 'error')),
    reason      TEXT,
    premise     TEXT,                   -- what the judge read (sections with the spans marked)
    created_at  TEXT NOT NULL
);
CREATE INDEX verifications_by_claim ON verifications(claim_id, id);
