-- 0011: what a sweep did to citations, told apart. `citations` counts the citations a sweep
-- re-anchored; of those, an anchor row is written for each whose status or span changed, and
-- for each carried to a new revision with the same status and span (an edit elsewhere in its
-- document). `health` and the report list the two apart: only the first pages anyone.
-- 0 on sweeps finished before 0011 (not known then).
ALTER TABLE sweeps ADD COLUMN citations_changed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sweeps ADD COLUMN citations_carried INTEGER NOT NULL DEFAULT 0;
