-- 0014: a sweep cheaper than the whole file (issue 27). Since issue 22 every sweep ran SQLite's
-- quick_check over every page first, about 10 s a gigabyte: 77% of a re-chunk-only sweep of
-- 200,000 citations and nearly all of a night with nothing changed. The store now records each
-- full check that found it sound, so a sweep checks the whole file only when the last such
-- check is older than `[sweep] full_check_days` (7 by default; `sweep --full-check` or
-- `citestore check` any time). Between full checks a sweep still stops at any damaged page it
-- reads, and its writes only touch pages it has read.
CREATE TABLE integrity_checks (
    id          INTEGER PRIMARY KEY,
    checked_at  TEXT NOT NULL,
    seconds     REAL NOT NULL
);
