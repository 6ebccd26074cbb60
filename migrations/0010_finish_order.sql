-- 0010: the order in which sweeps finished. The shards of one run often finish in the same
-- clock tick (a fixed CITESTORE_NOW, a coarse clock, workers on machines whose clocks differ),
-- and `health` takes a run's store-wide statuses from its shard that finished last: by time,
-- a tie picked a shard that finished before the others had written. Each finishing sweep takes
-- the next number here in its finishing transaction (one at a time), so the last is known.
-- NULL on sweeps finished before 0010 (and on interrupted ones).
ALTER TABLE sweeps ADD COLUMN finish_order INTEGER;
