-- 0008: sharded sweeps. `citestore sweep --shard I/N` sweeps only the documents whose stable id
-- hash falls in shard I of N, so N workers on N machines split one nightly run over a shared
-- (PostgreSQL) store. Each worker's sweep row says which shard it swept and which run it
-- belongs to (`--run`, by default the UTC date the worker started), so `health` shows the N
-- rows of one run as one event. All three are NULL on a sweep of the whole store.
ALTER TABLE sweeps ADD COLUMN run TEXT;              -- the run a shard belongs to
ALTER TABLE sweeps ADD COLUMN shard_index INTEGER;   -- I of `--shard I/N` (1-based)
ALTER TABLE sweeps ADD COLUMN shard_count INTEGER;   -- N of `--shard I/N`

-- With writers citing while sweeps run, a citation can be made against an older revision
-- after its document was swept: a later sweep must re-anchor it although the document's
-- revision and chunking are unchanged. So a swept document also records the newest citation
-- its re-anchoring covered (NULL on rows from before 0008: those are trusted as they were).
ALTER TABLE swept_documents ADD COLUMN citations_through INTEGER;
