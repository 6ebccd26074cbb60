//! Shards: `--shard I/N` splits the documents into N disjoint parts by a stable hash of their
//! doc id, so N workers sweep one corpus without overlap.
//!
//! Invariants: a document's shard depends only on its doc id and N (the first 8 bytes of the
//! SHA-256 of the doc id, big-endian, modulo N), never on the machine, the process or the
//! order documents were stored in; every document is in exactly one of shards 1..=N.

use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (1-based, as written: `2/4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, `1..=count`.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

impl Shard {
    /// True when `doc_id` belongs to this shard.
    pub fn contains(&self, doc_id: &str) -> bool {
        shard_of(doc_id, self.count) == self.index
    }
}

/// The shard (1-based) of `doc_id` among `count`.
pub fn shard_of(doc_id: &str, count: u32) -> u32 {
    let digest = Sha256::digest(doc_id.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(first) % u64::from(count.max(1))) as u32 + 1
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = Error;

    fn from_str(text: &str) -> Result<Shard> {
        let bad = |why: &str| Error::BadShard {
            given: text.to_string(),
            why: why.to_string(),
        };
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| bad("write it as I/N, e.g. 2/4"))?;
        let index: u32 = index
            .trim()
            .parse()
            .map_err(|_| bad("I is not a whole number"))?;
        let count: u32 = count
            .trim()
            .parse()
            .map_err(|_| bad("N is not a whole number"))?;
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(bad("I must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        let cases: [(&str, Option<(u32, u32)>); 8] = [
            ("1/1", Some((1, 1))),
            ("2/4", Some((2, 4))),
            ("4/4", Some((4, 4))),
            ("0/4", None),
            ("5/4", None),
            ("1/0", None),
            ("2", None),
            ("a/4", None),
        ];
        for (text, want) in cases {
            let got = text.parse::<Shard>().ok().map(|s| (s.index, s.count));
            assert_eq!(got, want, "{text}");
        }
        let err = "5/4".parse::<Shard>().unwrap_err().to_string();
        assert_eq!(
            err,
            "--shard 5/4: I must be between 1 and N; give --shard I/N with 1 <= I <= N, e.g. --shard 2/4"
        );
    }

    #[test]
    fn every_document_is_in_exactly_one_shard_and_shards_are_even() {
        let ids: Vec<String> = (0..4000).map(|i| format!("docs/{i:05}.md")).collect();
        for count in [1u32, 2, 3, 4, 7] {
            let mut sizes = vec![0usize; count as usize];
            for id in &ids {
                let owners: Vec<u32> = (1..=count)
                    .filter(|&index| Shard { index, count }.contains(id))
                    .collect();
                assert_eq!(owners.len(), 1, "{id} in {count}: {owners:?}");
                sizes[owners[0] as usize - 1] += 1;
            }
            let even = ids.len() / count as usize;
            for size in sizes {
                assert!(
                    size.abs_diff(even) < even / 5 + 10,
                    "{count}: {size} vs {even}"
                );
            }
        }
        // Pinned (computed apart, with Python's hashlib): machines running different builds
        // must agree on every document's shard.
        let pinned = [
            ("a.txt", [2, 3, 2, 3]),
            ("docs/00000.md", [2, 1, 4, 1]),
            ("rate-card.md", [2, 3, 4, 1]),
            ("plans.md", [1, 1, 1, 3]),
        ];
        for (doc_id, want) in pinned {
            let got = [2, 3, 4, 7].map(|n| shard_of(doc_id, n));
            assert_eq!(got, want, "{doc_id}");
        }
    }
}

/// Refuses a `--run` name that cannot name a run, by the rules of doc ids: empty, only
/// whitespace, or holding a control character (a newline breaks `health`'s table).
pub fn check_run_name(run: &str) -> Result<()> {
    crate::ingest::check_doc_id(run).map_err(|e| match e {
        Error::BadDocId { reason, .. } => Error::BadRunName {
            run: run.to_string(),
            reason,
        },
        other => other,
    })
}

/// The sweeps of one sharded run, as `health` shows it: one event.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepRun {
    /// The run's name (`--run`, by default the UTC date).
    pub run: String,
    /// N: how many shards the run was split into.
    pub shards: u32,
    /// Shards whose latest attempt finished.
    pub finished: u32,
    /// The latest attempt of each shard seen, by shard: `(I, sweep id)`.
    pub latest: Vec<(u32, i64)>,
    /// Every sweep of the run, oldest first (a killed shard and its restart are two).
    pub sweeps: Vec<i64>,
    /// When the last shard finished, once all N have.
    pub finished_at: Option<String>,
    /// The latest attempts' counters, summed.
    pub totals: crate::store::SweepRow,
}

/// One line of the sweep history: a sweep of the whole store, or a sharded run.
#[derive(Debug, Clone, PartialEq)]
pub enum SweepEvent {
    /// A sweep of the whole store (or of `--doc`s).
    Whole(crate::store::SweepRow),
    /// The shard sweeps of one run.
    Run(SweepRun),
}

/// Groups sweeps rows (newest first) into events, newest first: the shard rows of one run
/// (same run name and N) become one [`SweepRun`], placed where its newest row was.
pub fn events(rows: &[crate::store::SweepRow]) -> Vec<SweepEvent> {
    let mut out: Vec<SweepEvent> = Vec::new();
    for row in rows {
        let (Some(run), Some((index, count))) = (&row.run, row.shard.as_deref().and_then(split))
        else {
            out.push(SweepEvent::Whole(row.clone()));
            continue;
        };
        let found = out.iter_mut().find_map(|e| match e {
            SweepEvent::Run(r) if &r.run == run && r.shards == count => Some(r),
            _ => None,
        });
        let group = match found {
            Some(group) => group,
            None => {
                out.push(SweepEvent::Run(SweepRun {
                    run: run.clone(),
                    shards: count,
                    ..SweepRun::default()
                }));
                match out.last_mut() {
                    Some(SweepEvent::Run(r)) => r,
                    _ => unreachable!("just pushed a run"),
                }
            }
        };
        group.sweeps.insert(0, row.id);
        // Rows come newest first: the first row of a shard is its latest attempt.
        if group.latest.iter().any(|&(i, _)| i == index) {
            continue;
        }
        group.latest.push((index, row.id));
        group.latest.sort_unstable();
        add(&mut group.totals, row);
        if let Some(at) = &row.finished_at {
            group.finished += 1;
            if group.finished_at.as_ref().is_none_or(|t| at > t) {
                group.finished_at = Some(at.clone());
            }
        }
    }
    for event in &mut out {
        if let SweepEvent::Run(run) = event {
            if run.finished < run.shards {
                run.finished_at = None;
            }
        }
    }
    out
}

fn split(shard: &str) -> Option<(u32, u32)> {
    let (i, n) = shard.split_once('/')?;
    Some((i.parse().ok()?, n.parse().ok()?))
}

/// Adds a shard's counters to a run's; the store-wide statuses are those of the shard that
/// finished last (they are taken over the whole store when a shard finishes), known by its
/// finish order, not its time: shards often finish in the same clock tick. Sweeps finished
/// before the order was kept (`None`) come before those with one, and among themselves go by
/// time, then the newer sweep.
fn add(total: &mut crate::store::SweepRow, row: &crate::store::SweepRow) {
    total.planned = Some(total.planned.unwrap_or(0) + row.planned.unwrap_or(0));
    total.documents += row.documents;
    total.re_extracted += row.re_extracted;
    total.rechunked += row.rechunked;
    total.reanchored += row.reanchored;
    total.unchanged += row.unchanged;
    total.missing += row.missing;
    total.retired += row.retired;
    total.failed += row.failed;
    total.extractions += row.extractions;
    total.changed += row.changed;
    total.citations += row.citations;
    total.citations_changed += row.citations_changed;
    total.citations_carried += row.citations_carried;
    // Rows come newest first: on a full tie the newer sweep, seen first, stays.
    let later = |r: &crate::store::SweepRow| (r.finish_order, r.finished_at.clone());
    if row.finished_at.is_some() && (total.finished_at.is_none() || later(row) > later(total)) {
        total.finish_order = row.finish_order;
        total.finished_at = row.finished_at.clone();
        total.intact = row.intact;
        total.moved = row.moved;
        total.degraded = row.degraded;
        total.lost = row.lost;
    }
    total.seconds = match (total.seconds, row.seconds) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
}

#[cfg(test)]
mod event_tests {
    use super::*;
    use crate::store::SweepRow;

    fn row(id: i64, shard: Option<&str>, finished: bool, documents: i64) -> SweepRow {
        SweepRow {
            id,
            run: shard.map(|_| "night".to_string()),
            shard: shard.map(str::to_string),
            finished_at: finished.then(|| format!("2026-01-02T00:00:{id:02}Z")),
            documents,
            ..SweepRow::default()
        }
    }

    #[test]
    fn shards_of_a_run_are_one_event_and_a_restart_replaces_its_attempt() {
        // Newest first: shard 2 was killed (sweep 3) and restarted (sweep 5).
        let rows = [
            row(6, None, true, 9),
            row(5, Some("2/2"), true, 4),
            row(4, Some("1/2"), true, 5),
            row(3, Some("2/2"), false, 1),
            row(2, None, true, 9),
        ];
        let events = events(&rows);
        assert_eq!(events.len(), 3);
        assert!(matches!(&events[0], SweepEvent::Whole(r) if r.id == 6));
        let SweepEvent::Run(run) = &events[1] else {
            panic!("{events:?}")
        };
        assert_eq!(run.sweeps, [3, 4, 5]);
        assert_eq!(run.latest, [(1, 4), (2, 5)]);
        assert_eq!((run.shards, run.finished), (2, 2));
        assert_eq!(run.totals.documents, 9);
        assert_eq!(run.finished_at.as_deref(), Some("2026-01-02T00:00:05Z"));
        assert!(matches!(&events[2], SweepEvent::Whole(r) if r.id == 2));
        // Only the interrupted attempt seen: not finished.
        let events = super::events(&rows[3..4]);
        let SweepEvent::Run(run) = &events[0] else {
            panic!()
        };
        assert_eq!((run.finished, run.finished_at.clone()), (0, None));
    }
}
