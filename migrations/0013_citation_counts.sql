-- 0013: `health` at a glance (issue 27). Counting citations by status read every citation's
-- latest anchor (3.6 s at a million citations). Now the writes that change a status keep a
-- count per document and status: citing adds to `intact`, and a sweep's anchors move one
-- citation from its old status to its new one, in the same transaction as the rows they count.
-- Writers touch these rows in (doc_id, status) order, so concurrent writers on PostgreSQL wait
-- for each other instead of deadlocking. Filled here from every citation's current state.
CREATE TABLE citation_counts (
    doc_id  TEXT NOT NULL,
    status  TEXT NOT NULL CHECK (status IN ('intact', 'moved', 'degraded', 'lost')),
    n       INTEGER NOT NULL,
    PRIMARY KEY (doc_id, status)
);

INSERT INTO citation_counts (doc_id, status, n)
SELECT c.doc_id, COALESCE(a.status, 'intact'), count(*)
FROM citations c
LEFT JOIN anchors a ON a.id = (SELECT MAX(id) FROM anchors WHERE citation_id = c.id)
GROUP BY c.doc_id, COALESCE(a.status, 'intact');
