-- 0009: no query looks a chunk up by its content hash (the sweep compares the hashes of one
-- document's chunks in memory, `show` and `export` read a chunk by id), yet every chunk
-- written paid an insert at a random place in this index. On a sweep that re-chunks 10,000
-- documents that was most of the pages the sweep wrote: each transaction dirtied a new page
-- of it for nearly every chunk. Chunks stay findable by id (chunks_by_chunk_id).
DROP INDEX IF EXISTS chunks_by_content_hash;
