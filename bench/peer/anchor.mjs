// The Hypothesis-style peer of the accuracy harnesses: re-anchors each cited span of an old text
// in a new text the way the Hypothesis client anchors a TextQuoteSelector (its match-quote
// module): exact occurrences first, else approximate matches from `approx-string-match` with up
// to min(256, quote length / 2) errors, each scored 50·quote + 20·prefix + 20·suffix +
// 2·position (normalised), the best kept, no cut-off. Prefix and suffix are 32 chars of the old
// text, the position hint is the old start.
//
// Reads JSON Lines `{"doc", "old", "new", "spans": [[start, end], ...]}` (offsets in Unicode
// scalar values) from argv[2]; writes one line per span to argv[3]:
// `{"system": "peer", "doc", "i", "status", "start", "end", "score"}`, offsets again in scalar
// values; prints `{"citations", "seconds", "seconds_per_citation"}` on stdout.
//
// Run by bench/pdf_accuracy.py and bench/sphinx_peer.py; needs `npm ci --prefix bench/peer`.

import search from "approx-string-match";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";

const CONTEXT = 32;

// JavaScript strings index UTF-16 code units; the harnesses count scalar values. `units[i]` is
// the code-unit offset of scalar `i` (one past the end included); `scalarAt` the inverse.
function offsets(text) {
  const units = [0];
  for (const ch of text) units.push(units[units.length - 1] + ch.length);
  return units;
}

function scalarAt(units, unit) {
  let lo = 0;
  let hi = units.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (units[mid] < unit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function matches(text, str, maxErrors) {
  const exact = [];
  for (let at = text.indexOf(str); at !== -1; at = text.indexOf(str, at + 1)) {
    exact.push({ start: at, end: at + str.length, errors: 0 });
  }
  return exact.length > 0 ? exact : search(text, str, maxErrors);
}

function similarity(text, str) {
  if (str.length === 0 || text.length === 0) return 0;
  const best = matches(text, str, str.length);
  return 1 - best[0].errors / str.length;
}

function anchor(text, quote, prefix, suffix, hint) {
  if (quote.length === 0) return null;
  const found = matches(text, quote, Math.min(256, quote.length / 2));
  if (found.length === 0) return null;
  let best = null;
  for (const m of found) {
    const quoteScore = 1 - m.errors / quote.length;
    const prefixScore = prefix
      ? similarity(text.slice(Math.max(0, m.start - prefix.length), m.start), prefix)
      : 1;
    const suffixScore = suffix ? similarity(text.slice(m.end, m.end + suffix.length), suffix) : 1;
    const posScore = 1 - Math.abs(m.start - hint) / text.length;
    const score = (50 * quoteScore + 20 * prefixScore + 20 * suffixScore + 2 * posScore) / 92;
    if (best === null || score > best.score) best = { start: m.start, end: m.end, score };
  }
  return best;
}

async function main() {
  const [casesPath, resultsPath] = process.argv.slice(2);
  const out = createWriteStream(resultsPath);
  let citations = 0;
  let seconds = 0;
  const lines = createInterface({ input: createReadStream(casesPath), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const doc = JSON.parse(line);
    const oldUnits = offsets(doc.old);
    const newUnits = offsets(doc.new);
    doc.spans.forEach(([s, e], i) => {
      const [a, b] = [oldUnits[s], oldUnits[e]];
      const quote = doc.old.slice(a, b);
      const prefix = doc.old.slice(Math.max(0, a - CONTEXT), a);
      const suffix = doc.old.slice(b, b + CONTEXT);
      const t = process.hrtime.bigint();
      const m = anchor(doc.new, quote, prefix, suffix, a);
      seconds += Number(process.hrtime.bigint() - t) / 1e9;
      citations += 1;
      let r;
      if (m === null) {
        r = { status: "lost", start: s, end: e, score: 0 };
      } else {
        const [start, end] = [scalarAt(newUnits, m.start), scalarAt(newUnits, m.end)];
        const exact = doc.new.slice(m.start, m.end) === quote;
        const status = exact ? (start === s ? "intact" : "moved") : "degraded";
        r = { status, start, end, score: m.score * 100 };
      }
      out.write(JSON.stringify({ system: "peer", doc: doc.doc, i, ...r }) + "\n");
    });
  }
  await new Promise((resolve) => out.end(resolve));
  console.log(JSON.stringify({ citations, seconds, seconds_per_citation: seconds / Math.max(1, citations) }));
}

main();
