//! `citestore report`: what a sweep (or the sweeps since one) did, gathered from the store for
//! one self-contained HTML page ([`html::render`]); and citations as W3C Web Annotations
//! ([`w3c`], `citestore export --format w3c`).
//!
//! Invariants:
//! - Only reads the store, in one read snapshot. The changed citations are
//!   [`Store::each_changed_citation`] (one store function, shared with anything else that lists
//!   changes), streamed: the counts are added up as they pass, and only the `limit` worst are
//!   kept, so memory does not grow with the number of changes.
//! - Citations are ordered worst first (lost, degraded, moved, intact), then by document and the
//!   order they were made; at most `limit` of them are carried into the page, and the page says
//!   how many were left out. Counts (summary, documents) are always over every changed citation.
//! - Every text taken from the store (document text, quotes, claims, doc ids, reasons) is data:
//!   [`html`] escapes it for the context it lands in.
//! - A citation's anchor in the page is [`anchor`] of its id, the same one `show` prints.

pub mod html;
pub mod w3c;

use crate::error::{Error, Result};
use crate::model::{counts_by_name, Method, Status};
use crate::store::{ChangeSelection, ChangedCitation, SpanState, Store, SweepRow};
use serde::{Deserialize, Serialize};
use similar::{ChangeTag, TextDiff};
use std::collections::{BTreeMap, HashMap};

/// Which sweeps a report is about.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Range {
    /// The newest sweep.
    #[default]
    Latest,
    /// One sweep.
    Sweep(i64),
    /// Every sweep after this one.
    SinceSweep(i64),
    /// Every sweep started at or after this instant (RFC 3339 UTC, as the store writes).
    SinceTime(String),
}

impl Range {
    /// Parses `--since`: digits are a sweep id; else an RFC 3339 instant or a `YYYY-MM-DD` date
    /// (midnight UTC).
    pub fn since(value: &str) -> Result<Range> {
        let bad = || Error::BadSince {
            value: value.to_string(),
        };
        if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
            return value.parse().map(Range::SinceSweep).map_err(|_| bad());
        }
        let instant = match chrono::DateTime::parse_from_rfc3339(value) {
            Ok(t) => t.with_timezone(&chrono::Utc),
            Err(_) => chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d")
                .map_err(|_| bad())?
                .and_hms_opt(0, 0, 0)
                .ok_or_else(bad)?
                .and_utc(),
        };
        Ok(Range::SinceTime(
            instant.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        ))
    }
}

/// What to report on.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// The sweeps.
    pub range: Range,
    /// Only citations with these statuses now (all when empty).
    pub statuses: Vec<Status>,
    /// Only these documents (all when empty).
    pub docs: Vec<String>,
    /// At most this many citations carried into the page (0: all).
    pub limit: usize,
    /// Characters of context either side of a span.
    pub context_chars: usize,
    /// Sweeps in the trend chart.
    pub trend_sweeps: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            range: Range::Latest,
            statuses: Vec::new(),
            docs: Vec::new(),
            limit: 2000,
            context_chars: 80,
            trend_sweeps: 30,
        }
    }
}

/// A piece of a span's text; `changed` marks characters the other side does not have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// The characters.
    pub text: String,
    /// Removed (on the old side) or added (on the new side).
    pub changed: bool,
}

/// A span in its revision, with context either side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpanView {
    /// The revision the offsets index.
    pub revision: u32,
    /// Start, chars.
    pub start: usize,
    /// End, chars.
    pub end: usize,
    /// Context before the span.
    pub before: String,
    /// The span's text, in pieces, changed characters marked.
    pub pieces: Vec<Piece>,
    /// Context after the span.
    pub after: String,
}

/// One changed citation as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportItem {
    /// The element id in the page (`c-…`).
    pub anchor: String,
    /// Citation id.
    pub citation_id: String,
    /// Document.
    pub doc_id: String,
    /// The claim.
    pub claim: String,
    /// The model's quote.
    pub quote: String,
    /// Status now.
    pub status: Status,
    /// Status before.
    pub was: Status,
    /// The sweep that decided the status now.
    pub sweep: i64,
    /// How it was placed.
    pub method: Method,
    /// Score of the placement.
    pub score: f64,
    /// Why it is degraded or lost.
    pub reason: Option<String>,
    /// Where it was (for lost: the last known text).
    pub old: SpanView,
    /// Where it is now; `None` when lost.
    pub new: Option<SpanView>,
}

/// Changed citations of one document, counted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentChanges {
    /// The document.
    pub doc_id: String,
    /// Changed citations.
    pub changed: usize,
    /// By status now.
    pub status: BTreeMap<String, usize>,
}

/// Everything the page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// `Sweep 7`, `Sweeps 5–7 (since sweep 4)`, …
    pub title: String,
    /// When the report was made.
    pub generated_at: String,
    /// The database it was read from.
    pub database: String,
    /// The sweeps covered, oldest first (empty when none ran in the range).
    pub sweeps: Vec<SweepRow>,
    /// The last sweeps, oldest first, for the trend chart.
    pub trend: Vec<SweepRow>,
    /// Current statuses over the whole store.
    pub status_now: BTreeMap<String, i64>,
    /// Changed citations matching the filters.
    pub changed: usize,
    /// Citations matching the filters carried to a new revision with the same status and
    /// span (not in `changed`).
    pub revision_only: usize,
    /// Those by status now.
    pub by_status: BTreeMap<String, usize>,
    /// Those by method.
    pub by_method: BTreeMap<String, usize>,
    /// Those by `before → now`.
    pub transitions: BTreeMap<String, usize>,
    /// Documents with changed citations, worst first.
    pub documents: Vec<DocumentChanges>,
    /// The citations carried into the page, worst first.
    pub citations: Vec<ReportItem>,
    /// Changed citations left out by `limit`.
    pub omitted: usize,
    /// The cap that was applied (0: none).
    pub limit: usize,
    /// `--status` as given.
    pub status_filter: Vec<Status>,
    /// `--doc` as given.
    pub doc_filter: Vec<String>,
    /// When the range changed nothing: the newest earlier sweep that did.
    pub last_sweep_with_changes: Option<i64>,
}

/// The page anchor of a citation: its id when it is already a safe `c-…` token, else `c-` and
/// a hash of it, so a pasted link always names an element id made of `[a-z0-9-]`.
pub fn anchor(citation_id: &str) -> String {
    let safe = citation_id.starts_with("c-")
        && citation_id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if safe {
        citation_id.to_string()
    } else {
        use sha2::Digest as _;
        let digest = sha2::Sha256::digest(citation_id.as_bytes());
        let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
        format!("c-{hex}")
    }
}

/// Resolves the range to sweep ids `from..=to` and a title (`from > to`: no sweep in range).
pub fn resolve(store: &Store, range: &Range) -> Result<(i64, i64, String)> {
    let latest = store.latest_sweep()?.id;
    Ok(match range {
        Range::Latest => (latest, latest, format!("Sweep {latest}")),
        Range::Sweep(id) => {
            store.sweep_row(*id)?;
            (*id, *id, format!("Sweep {id}"))
        }
        Range::SinceSweep(id) => {
            // Sweep 0 is "before the first sweep": every sweep.
            if *id != 0 {
                store.sweep_row(*id)?;
            }
            (id + 1, latest, format!("Sweeps since sweep {id}"))
        }
        Range::SinceTime(t) => {
            let from = store.first_sweep_since(t)?.unwrap_or(latest + 1);
            (from, latest, format!("Sweeps since {t}"))
        }
    })
}

/// Reads the store and builds the report.
pub fn gather(store: &Store, options: &ReportOptions, now: &str) -> Result<Report> {
    for doc in &options.docs {
        if !store.has_document(doc)? {
            return Err(Error::UnknownDocument {
                doc_id: doc.clone(),
            });
        }
    }
    // One read snapshot: the counts and the citations agree, and PostgreSQL streams the
    // changed citations through a cursor.
    store.snapshot(|store| gather_in(store, options, now))
}

/// [`gather`], inside its read snapshot.
fn gather_in(store: &Store, options: &ReportOptions, now: &str) -> Result<Report> {
    let (from, to, title) = resolve(store, &options.range)?;
    let mut tally = Tally::default();
    let mut worst = Worst::new(options.limit);
    store.each_changed_citation(
        &ChangeSelection {
            from_sweep: from,
            to_sweep: to,
            statuses: options.statuses.clone(),
            docs: options.docs.clone(),
        },
        |c| {
            // A citation carried to a new revision with its status and span is counted apart:
            // only the revision changed.
            if c.revision_only() {
                tally.revision_only += 1;
            } else {
                tally.add(&c);
                worst.offer(c);
            }
            Ok(())
        },
    )?;
    let mut trend = store.recent_sweeps(options.trend_sweeps)?;
    trend.reverse();
    let last_sweep_with_changes = match tally.changed {
        0 => store.last_sweep_with_changes(to)?,
        _ => None,
    };
    let kept = worst.into_sorted();
    let mut texts = Texts::new(store);
    let citations = kept
        .iter()
        .map(|c| item(&mut texts, c, options.context_chars))
        .collect::<Result<Vec<_>>>()?;
    Ok(Report {
        title,
        generated_at: now.to_string(),
        database: store.location().to_string(),
        sweeps: store.sweeps_between(from, to)?,
        trend,
        status_now: counts_by_name(store.status_counts()?),
        changed: tally.changed,
        revision_only: tally.revision_only,
        by_status: tally.by_status,
        by_method: tally.by_method,
        transitions: tally.transitions,
        documents: tally.documents.finish(),
        omitted: tally.changed - citations.len(),
        citations,
        limit: options.limit,
        status_filter: options.statuses.clone(),
        doc_filter: options.docs.clone(),
        last_sweep_with_changes,
    })
}

/// The counts over every changed citation, added one citation at a time.
#[derive(Default)]
struct Tally {
    changed: usize,
    revision_only: usize,
    by_status: BTreeMap<String, usize>,
    by_method: BTreeMap<String, usize>,
    transitions: BTreeMap<String, usize>,
    documents: PerDocument,
}

impl Tally {
    fn add(&mut self, c: &ChangedCitation) {
        self.changed += 1;
        *self
            .by_status
            .entry(c.after.status.to_string())
            .or_insert(0) += 1;
        *self.by_method.entry(c.method.to_string()).or_insert(0) += 1;
        let transition = format!("{} \u{2192} {}", c.before.status, c.after.status);
        *self.transitions.entry(transition).or_insert(0) += 1;
        self.documents.add(c);
    }
}

/// The first `limit` changed citations in the page's order (worst status first, then by
/// document and row), kept while the rest stream past: at most `limit` in memory (all of them
/// when `limit` is 0).
struct Worst {
    limit: usize,
    heap: std::collections::BinaryHeap<Ranked>,
}

/// A changed citation ordered by its place in the page: the greatest is the last.
struct Ranked(ChangedCitation);

impl Ranked {
    fn key(&self) -> (std::cmp::Reverse<Status>, &str, i64) {
        (
            std::cmp::Reverse(self.0.after.status),
            &self.0.doc_id,
            self.0.row,
        )
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl Worst {
    fn new(limit: usize) -> Worst {
        Worst {
            limit,
            heap: std::collections::BinaryHeap::new(),
        }
    }

    fn offer(&mut self, c: ChangedCitation) {
        self.heap.push(Ranked(c));
        if self.limit > 0 && self.heap.len() > self.limit {
            self.heap.pop();
        }
    }

    fn into_sorted(self) -> Vec<ChangedCitation> {
        self.heap
            .into_sorted_vec()
            .into_iter()
            .map(|r| r.0)
            .collect()
    }
}

/// Documents with changed citations, added one citation at a time; [`PerDocument::finish`]
/// orders them the most lost first, then degraded, then most changed.
#[derive(Default)]
struct PerDocument(BTreeMap<String, DocumentChanges>);

impl PerDocument {
    fn add(&mut self, c: &ChangedCitation) {
        let d = self
            .0
            .entry(c.doc_id.clone())
            .or_insert_with(|| DocumentChanges {
                doc_id: c.doc_id.clone(),
                ..DocumentChanges::default()
            });
        d.changed += 1;
        *d.status.entry(c.after.status.to_string()).or_insert(0) += 1;
    }

    fn finish(self) -> Vec<DocumentChanges> {
        let mut out: Vec<DocumentChanges> = self.0.into_values().collect();
        let key = |d: &DocumentChanges| {
            let get = |s: Status| d.status.get(s.as_str()).copied().unwrap_or(0);
            (get(Status::Lost), get(Status::Degraded), d.changed)
        };
        out.sort_by(|a, b| key(b).cmp(&key(a)).then(a.doc_id.cmp(&b.doc_id)));
        out
    }
}

/// Revision texts as chars, each read once per report.
struct Texts<'a> {
    store: &'a Store,
    cache: HashMap<(String, u32), Vec<char>>,
}

impl<'a> Texts<'a> {
    fn new(store: &'a Store) -> Self {
        Texts {
            store,
            cache: HashMap::new(),
        }
    }

    fn get(&mut self, doc_id: &str, revision: u32) -> Result<&[char]> {
        let key = (doc_id.to_string(), revision);
        if !self.cache.contains_key(&key) {
            let text = self.store.text_of(doc_id, revision)?;
            self.cache.insert(key.clone(), text.chars().collect());
        }
        Ok(&self.cache[&key])
    }
}

/// `(before, span, after)` of `[start, end)` with `context` chars either side (clamped).
fn cut(text: &[char], start: usize, end: usize, context: usize) -> (String, String, String) {
    let end = end.min(text.len());
    let start = start.min(end);
    let s = |a: usize, b: usize| text[a..b].iter().collect::<String>();
    (
        s(start.saturating_sub(context), start),
        s(start, end),
        s(end, (end + context).min(text.len())),
    )
}

/// The old and new span texts split into pieces: characters removed from the old, added in the
/// new (a character diff, as `show` marks them).
pub fn diff_pieces(old: &str, new: &str) -> (Vec<Piece>, Vec<Piece>) {
    let mut left: Vec<Piece> = Vec::new();
    let mut right: Vec<Piece> = Vec::new();
    let push = |side: &mut Vec<Piece>, text: &str, changed: bool| match side.last_mut() {
        Some(last) if last.changed == changed => last.text.push_str(text),
        _ => side.push(Piece {
            text: text.to_string(),
            changed,
        }),
    };
    let diff = TextDiff::from_chars(old, new);
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Equal => {
                push(&mut left, change.value(), false);
                push(&mut right, change.value(), false);
            }
            ChangeTag::Delete => push(&mut left, change.value(), true),
            ChangeTag::Insert => push(&mut right, change.value(), true),
        }
    }
    (left, right)
}

fn view(text: &[char], span: &SpanState, context: usize) -> (String, String, String, SpanView) {
    let (before, middle, after) = cut(text, span.start, span.end, context);
    let view = SpanView {
        revision: span.revision,
        start: span.start,
        end: span.end,
        before: before.clone(),
        pieces: Vec::new(),
        after: after.clone(),
    };
    (before, middle, after, view)
}

fn item(texts: &mut Texts<'_>, c: &ChangedCitation, context: usize) -> Result<ReportItem> {
    let old_text = texts.get(&c.doc_id, c.before.revision)?;
    let (_, old_span, _, mut old) = view(old_text, &c.before, context);
    let new = if c.after.status == Status::Lost {
        old.pieces = vec![Piece {
            text: old_span,
            changed: false,
        }];
        None
    } else {
        let new_text = texts.get(&c.doc_id, c.after.revision)?;
        let (_, new_span, _, mut new) = view(new_text, &c.after, context);
        let (left, right) = diff_pieces(&old_span, &new_span);
        old.pieces = left;
        new.pieces = right;
        Some(new)
    };
    Ok(ReportItem {
        anchor: anchor(&c.citation_id),
        citation_id: c.citation_id.clone(),
        doc_id: c.doc_id.clone(),
        claim: c.claim.clone(),
        quote: c.quote.clone(),
        status: c.after.status,
        was: c.before.status,
        sweep: c.sweep,
        method: c.method,
        score: c.score,
        reason: c.reason.clone(),
        old,
        new,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_parses_sweep_ids_dates_and_instants() {
        let cases = [
            ("12", Some(Range::SinceSweep(12))),
            (
                "2026-01-02",
                Some(Range::SinceTime("2026-01-02T00:00:00.000Z".into())),
            ),
            (
                "2026-01-02T05:04:05+02:00",
                Some(Range::SinceTime("2026-01-02T03:04:05.000Z".into())),
            ),
            ("yesterday", None),
            ("", None),
            ("-3", None),
        ];
        for (input, want) in cases {
            assert_eq!(Range::since(input).ok(), want, "{input:?}");
        }
    }

    #[test]
    fn anchors_are_safe_element_ids() {
        assert_eq!(anchor("c-221cc4b4ae2a"), "c-221cc4b4ae2a");
        for hostile in ["c-\"><script>", "x y", "C-ABC", "c-é"] {
            let a = anchor(hostile);
            assert!(a.starts_with("c-") && a.len() == 14, "{hostile:?} → {a}");
            assert!(a
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
        }
    }

    #[test]
    fn diff_marks_removed_and_added_characters() {
        let (old, new) = diff_pieces("calls/mo", "calls / mo");
        let changed = |p: &[Piece]| -> String {
            p.iter()
                .filter(|x| x.changed)
                .map(|x| x.text.as_str())
                .collect()
        };
        assert_eq!(changed(&old), "");
        assert_eq!(changed(&new), "  ");
        let joined = |p: &[Piece]| -> String { p.iter().map(|x| x.text.as_str()).collect() };
        assert_eq!(joined(&old), "calls/mo");
        assert_eq!(joined(&new), "calls / mo");
        let (old, new) = diff_pieces("$0.12", "$0.15");
        assert_eq!(changed(&old), "2");
        assert_eq!(changed(&new), "5");
    }

    #[test]
    fn cut_clamps_to_the_text() {
        let text: Vec<char> = "héllo world".chars().collect();
        assert_eq!(
            cut(&text, 1, 4, 3),
            ("h".into(), "éll".into(), "o w".into())
        );
        assert_eq!(
            cut(&text, 6, 99, 3),
            ("lo ".into(), "world".into(), "".into())
        );
    }
}
