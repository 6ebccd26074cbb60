#!/usr/bin/env python3
"""Re-extraction accuracy on real PDFs (issue 10): the same document extracted by another parser.

Real manuals from a Debian documentation package (texlive-science-doc, fetched with
`apt-get download`, unpacked with `dpkg-deb -x`) are extracted by poppler's pdftotext (what
citestore ingests) and by pdfminer.six and pypdf (pinned, installed from PyPI into a virtualenv in
the work folder). ~100 word-aligned spans of 40-250 chars per document are cited in the pdftotext
text and re-anchored onto each other extraction by

- citestore: `benches/reanchor_accuracy.rs` (one `DocumentSweep` per document, citations as `cite`
  stores them, the new text re-chunked), run with `cargo bench --bench reanchor_accuracy`;
- the Hypothesis-style peer: `bench/peer/anchor.mjs` (npm `approx-string-match`, Hypothesis's
  matchQuote scoring 50·quote + 20·prefix + 20·suffix + 2·position, no cut-off),

in the same run, on the same cases.

Oracle (no code shared with the engine): both texts projected to lowercase letters and digits
(each char NFKD-decomposed, so a ligature is its letters; accents, combining or spacing, dropped),
aligned by unique 24-grams kept on a longest increasing chain, then difflib.SequenceMatcher between
consecutive anchors (a gap too large for difflib is aligned the same way inside, with shorter grams
if it has no anchor). Per span: the share of its letters the oracle maps (survival) and the
expected new span (first to last mapped letter, without a few stray letters at the edges that lie
farther from the rest than the span is long). A span the chain misses (a block the new extractor
put in another order) is looked for where its 12-grams point (grams occurring as often in both
texts, copies paired by rank), aligned there by difflib; the better of the two counts. A glyph
pypdf writes as its name (`/one.taboldstyle`, `/b.sc`) is the letter it names; a span whose
letters stand unchanged once in each text is expected there; a verbatim span of text repeated as
often in both texts is expected at the copy of the same rank (near the aligned region).
Categories: verbatim (the span's exact text sits inside the oracle's region in the new text),
light (>= 90 % of letters survive), 50-90 %, 20-50 %, deleted (< 20 %).

Usage: python3 bench/pdf_accuracy.py [--docs 12] [--spans 100] [--seed 1] [--work DIR]
Needs: apt-get (download only), dpkg-deb, pdftotext, python3 -m venv, node + `npm ci --prefix
bench/peer`, cargo. Prints markdown tables; writes misses to the work folder.
"""

import argparse
import bisect
import difflib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = "texlive-science-doc"
PINS = ["pdfminer.six==20260107", "pypdf==7.1.1"]
EXTRACTORS = ("pdfminer", "pypdf")
NGRAM = 24

EXTRACT = r"""
import sys
which, path = sys.argv[1], sys.argv[2]
if which == "pdfminer":
    from pdfminer.high_level import extract_text
    text = extract_text(path)
else:
    from pypdf import PdfReader
    text = "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)
sys.stdout.write(text)
"""


def fetch_pdfs(work: Path) -> list:
    pkg = work / "pkg"
    if not pkg.exists():
        debs = list(work.glob(f"{PACKAGE}_*.deb"))
        if not debs:
            subprocess.run(["apt-get", "download", PACKAGE], cwd=work, check=True)
            debs = list(work.glob(f"{PACKAGE}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(pkg)], check=True)
    return sorted(pkg.rglob("*.pdf"))


def venv_python(work: Path) -> str:
    venv = work / "venv"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PINS], check=True)
    return str(python)


def extract(work: Path, python: str, pdf: Path) -> dict:
    """{extractor: text} for one PDF, cached in the work folder; None when one fails."""
    cache = work / "text" / (pdf.stem + ".json")
    if cache.exists():
        return json.loads(cache.read_text())
    out = {}
    try:
        out["pdftotext"] = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, check=True,
            timeout=120).stdout.decode("utf-8", "replace")
        for which in EXTRACTORS:
            out[which] = subprocess.run(
                [python, "-c", EXTRACT, which, str(pdf)], capture_output=True, check=True,
                timeout=300).stdout.decode("utf-8", "replace")
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
        out = None
    cache.parent.mkdir(exist_ok=True)
    cache.write_text(json.dumps(out))
    return out


# ----- oracle ------------------------------------------------------------------------------------

# pypdf writes a glyph that has no Unicode mapping in a font variant (small capitals, old-style
# figures) as its PostScript name: `/one.taboldstyle` is the digit 1, `/b.sc` the letter b.
DIGIT_NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
GLYPH = re.compile(r"/(%s|[A-Za-z](?:_[A-Za-z])*)((?:\.(?:taboldstyle|oldstyle|superior|"
                   r"inferior|swash|smcp|c2sc|tosf|onum|lnum|tnum|pnum|sups|subs|sinf|numr|"
                   r"dnom|osf|tlf|alt|sc|lf|tf))+)" % "|".join(DIGIT_NAMES))


def glyph_letters(name: str) -> str:
    if name.lower() in DIGIT_NAMES:
        return str(DIGIT_NAMES.index(name.lower()))
    return name.replace("_", "")


def project(text: str):
    """Lowercase letters and digits of `text`, with the raw index of each. Each char is
    decomposed (NFKD: a ligature is its letters, `é` is `e` and an accent); accents, whether
    combining marks or the spacing accents some extractors emit beside the letter (`´e`, `ˆe`,
    U+02B0-U+02FF), are not letters; a glyph written as its name is the letter it names."""
    glyphs = {m.start(): (m.end(), glyph_letters(m.group(1))) for m in GLYPH.finditer(text)}
    chars, raw = [], []
    i = 0
    while i < len(text):
        if i in glyphs:
            end, letters = glyphs[i]
            for c in letters.lower():
                chars.append(c)
                raw.append(i)
            i = end
            continue
        for c in unicodedata.normalize("NFKD", text[i]).lower():
            if c.isalnum() and not "\u02b0" <= c <= "\u02ff":
                chars.append(c)
                raw.append(i)
        i += 1
    return "".join(chars), raw


def lis(pairs: list) -> list:
    """Longest chain of pairs increasing in both coordinates (pairs sorted by the first)."""
    tails, tails_at, prev = [], [], [None] * len(pairs)
    for k, (_, b) in enumerate(pairs):
        j = bisect.bisect_left(tails, b)
        if j == len(tails):
            tails.append(b)
            tails_at.append(k)
        else:
            tails[j] = b
            tails_at[j] = k
        prev[k] = tails_at[j - 1] if j else None
    out, k = [], tails_at[-1] if tails_at else None
    while k is not None:
        out.append(pairs[k])
        k = prev[k]
    return out[::-1]


def align(a: str, b: str) -> list:
    """For each index of projection `a`, its index in projection `b`, or -1."""
    amap = [-1] * len(a)
    align_segment(a, b, 0, len(a), 0, len(b), NGRAM, amap)
    return amap


def align_segment(a, b, a0, a1, b0, b1, n, amap) -> None:
    """Aligns a[a0:a1] with b[b0:b1]: small segments by difflib; larger ones by the grams of
    length `n` unique in both segments, kept on a longest increasing chain and grown into runs,
    the gaps between runs aligned the same way (shorter grams when a gap has no anchor)."""
    la, lb = a1 - a0, b1 - b0
    if la <= 0 or lb <= 0:
        return
    if la * lb <= 4_000_000:
        sm = difflib.SequenceMatcher(None, a[a0:a1], b[b0:b1], autojunk=False)
        for blk in sm.get_matching_blocks():
            for t in range(blk.size):
                amap[a0 + blk.a + t] = b0 + blk.b + t
        return

    def unique(s, lo, hi):
        seen = {}
        for i in range(lo, hi - n + 1):
            g = s[i:i + n]
            seen[g] = -1 if g in seen else i
        return {g: i for g, i in seen.items() if i >= 0}

    ua, ub = unique(a, a0, a1), unique(b, b0, b1)
    chain = lis(sorted((i, ub[g]) for g, i in ua.items() if g in ub))
    if not chain:
        if n > 6:
            align_segment(a, b, a0, a1, b0, b1, n // 2, amap)
        return
    ai, bi = a0, b0
    for i, j in chain:
        if i < ai or j < bi:
            continue
        k = 0
        while i + k < a1 and j + k < b1 and a[i + k] == b[j + k]:
            k += 1
        align_segment(a, b, ai, i, bi, j, n, amap)
        for t in range(k):
            amap[i + t] = j + t
        ai, bi = i + k, j + k
    align_segment(a, b, ai, a1, bi, b1, n, amap)


MOVED_GRAM = 12


def gram_pairs(a: str, b: str) -> dict:
    """{position in a: position in b} for the MOVED_GRAM-letter grams that occur as many times
    in the projection `a` as in `b` (at most 8 times): the k-th copy in `a` is paired with the
    k-th in `b` (repeated text keeps the order of its copies)."""
    def positions(s):
        at = {}
        for i in range(len(s) - MOVED_GRAM + 1):
            at.setdefault(s[i:i + MOVED_GRAM], []).append(i)
        return at
    pa, pb = positions(a), positions(b)
    out = {}
    for g, ia in pa.items():
        ib = pb.get(g)
        if ib and len(ib) == len(ia) <= 8:
            out.update(zip(ia, ib))
    return out


def moved_block(a: str, b: str, pairs: dict, lo: int, hi: int) -> list:
    """Where the letters a[lo:hi] went when the new extractor put their block in another order
    (off the increasing chain): the span's grams paired by `gram_pairs` vote for where the span
    starts in `b`; the span is aligned (difflib) with the new letters the votes bound, and the
    letters in matching blocks of 4 or more count as found. [] when no gram votes."""
    span = a[lo:hi]
    votes = [pairs[lo + o] - o for o in range(len(span) - MOVED_GRAM + 1) if lo + o in pairs]
    if not votes:
        return []
    n = len(span)
    best = max(votes, key=lambda v: sum(abs(w - v) <= n for w in votes))
    cluster = [w for w in votes if abs(w - best) <= n]
    # From the earliest start the votes allow to the latest end, a quarter of the span's
    # length of slack either side.
    w0 = max(0, min(cluster) - n // 4)
    window = b[w0:max(cluster) + n + n // 4]
    sm = difflib.SequenceMatcher(None, span, window, autojunk=False)
    return [w0 + blk.b + t for blk in sm.get_matching_blocks() if blk.size >= 4
            for t in range(blk.size)]


def drop_strays(mapped: list, letters: int) -> list:
    """`mapped` (new positions of a span's letters, in order) without the few letters at either
    edge that lie farther from the rest than the span is long: letters the sequence matcher
    paired by chance with a word elsewhere (`repere` two paragraphs up), not where the span
    went. A group of at least a tenth of the span's letters is never dropped."""
    groups, start = [], 0
    for k in range(1, len(mapped) + 1):
        if k == len(mapped) or mapped[k] - mapped[k - 1] > letters:
            groups.append(mapped[start:k])
            start = k
    while len(groups) > 1 and len(groups[0]) < 0.1 * letters:
        groups.pop(0)
    while len(groups) > 1 and len(groups[-1]) < 0.1 * letters:
        groups.pop()
    return [m for g in groups for m in g]


def classify(old, new, a, b, old_raw, new_raw, amap, grams, start, end) -> dict:
    lo = bisect.bisect_left(old_raw, start)
    hi = bisect.bisect_left(old_raw, end)
    letters = hi - lo
    mapped = [amap[k] for k in range(lo, hi) if amap[k] >= 0]
    share = len(mapped) / letters if letters else 0.0
    # The span's letters standing unchanged, together, once in each text: that is where it
    # went, whatever the chain made of it (a paragraph moved past a near-twin sentence: the
    # chain kept the twin, which has a word more, in its place). Not when they occur more
    # than once: paragraphs an extractor swapped swap their copies too.
    olds, news = occurrences(a, a[lo:hi]), occurrences(b, a[lo:hi])
    if letters and len(olds) == len(news) == 1:
        q = news[0]
        if mapped != list(range(q, q + letters)):
            mapped, share = list(range(q, q + letters)), 1.0
    # A block the new extractor put in another order is off the increasing chain: when more of
    # the span's letters are found, in order, where its unique grams point, that is where it is.
    if share < 0.9 and letters:
        moved = moved_block(a, b, grams, lo, hi)
        if len(moved) > len(mapped):
            mapped, share = moved, len(moved) / letters
    mapped = drop_strays(mapped, letters)
    share = len(mapped) / letters if letters else 0.0
    case = {"survival": share, "letters": letters}
    expected = [new_raw[mapped[0]], new_raw[mapped[-1]] + 1] if mapped else None
    case["expected"] = expected
    span = old[start:end]
    verbatim = None
    if expected:
        # The span's exact text where the oracle's letters are (stray letters matched by chance
        # at the edges may widen the oracle's region beyond it).
        at = new.find(span, max(0, expected[0] - len(span)))
        if 0 <= at < expected[1]:
            verbatim = at
            # Text repeated line after line ("very very very ...") aligns equally well a line
            # off: when the span's text occurs as often in both texts, its copies keep their
            # order, so the copy of the same rank is the one the span became.
            olds, news = occurrences(old, span), occurrences(new, span)
            if len(olds) == len(news) > 1:
                same_rank = news[olds.index(start)]
                if abs(same_rank - at) <= len(span):
                    verbatim = same_rank
    if verbatim is not None:
        case.update(category="verbatim", expected=[verbatim, verbatim + len(span)])
    elif share >= 0.9:
        case["category"] = "light"
    elif share >= 0.5:
        case["category"] = "50-90"
    elif share >= 0.2:
        case["category"] = "20-50"
    else:
        case["category"] = "deleted"
    return case


def occurrences(text: str, needle: str) -> list:
    """Every start of `needle` in `text`, overlapping ones included."""
    out, at = [], text.find(needle)
    while at >= 0:
        out.append(at)
        at = text.find(needle, at + 1)
    return out


def word_spans(text: str, rng: random.Random, count: int) -> list:
    spans, tries = set(), 0
    n = len(text)
    while len(spans) < count and tries < count * 30:
        tries += 1
        start = rng.randrange(0, max(1, n - 40))
        while start < n and not text[start].isalnum():
            start += 1
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        end = min(n, start + rng.randint(40, 250))
        while end < n and text[end - 1].isalnum() and text[end].isalnum():
            end += 1
        while end > start and not text[end - 1].isalnum():
            end -= 1
        if 40 <= end - start <= 250 and sum(c.isalnum() for c in text[start:end]) >= 20:
            spans.add((start, end))
    return sorted(spans)


def iou(a, b) -> float:
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    union = max(a[1], b[1]) - min(a[0], b[0])
    return inter / union if union else 0.0


CATS = ("verbatim", "light", "50-90", "20-50", "deleted")



# Typographic variants the oracle reads as one (independent of the engine's fold: its
# documented rules, written again here): quotes, dashes, invisible chars.
_TYPO = str.maketrans({**{c: "'" for c in "\u2018\u2019\u201a\u201b\u2032"},
                       **{c: '"' for c in "\u201c\u201d\u201e\u201f\u2033"},
                       **{c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"},
                       **{c: None for c in "\u00ad\u200b\ufeff"}})


def same_words(a: str, b: str) -> bool:
    """The same words up to whitespace, line breaks, case and typography (NFKC, casefold)."""
    fold = lambda s: " ".join(unicodedata.normalize("NFKC", s).translate(_TYPO).casefold().split())
    return fold(a) == fold(b)

def score(cases, results, docs, system) -> dict:
    counts = {c: [0, 0] for c in CATS}
    false_anchors = anchored = 0
    for case in cases:
        r = results[(system, case["doc"], case["i"])]
        doc = docs[case["doc"]]
        span = doc["old"][case["start"]:case["end"]]
        exact = r["status"] in ("intact", "moved")
        if exact:
            anchored += 1
            # Issue 24: intact/moved hold the cited text, or the same words in other
            # whitespace or typography (a re-wrapped paragraph), at the oracle's place where it
            # has one (as byte-equal text, a copy elsewhere is judged by the categories).
            at = doc["new"][r["start"]:r["end"]]
            if at != span and not (same_words(at, span) and (case.get("expected") is None
                                            or iou((r["start"], r["end"]), case["expected"]) >= 0.5)):
                false_anchors += 1
        cat = case["category"]
        counts[cat][1] += 1
        placed = r["status"] != "lost"
        if cat == "verbatim":
            ok = exact and [r["start"], r["end"]] == case["expected"]
        elif cat == "deleted":
            ok = not placed
        else:
            ok = placed and case["expected"] is not None and iou(
                (r["start"], r["end"]), case["expected"]) >= 0.5
        counts[cat][0] += int(ok)
    return {"counts": counts, "false_anchors": false_anchors, "anchored": anchored}


def pct(ok_total) -> str:
    ok, total = ok_total
    return f"{100.0 * ok / total:.2f}% ({ok}/{total})" if total else "n/a"


def run_citestore(cases_path: Path, results_path: Path) -> dict:
    env = dict(os.environ, CITESTORE_SWEEP_CASES=str(cases_path),
               CITESTORE_SWEEP_RESULTS=str(results_path))
    run = subprocess.run(["cargo", "bench", "--bench", "reanchor_accuracy"], cwd=REPO, env=env,
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"bench binary failed:\n{run.stderr[-4000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def run_peer(cases_path: Path, results_path: Path) -> dict:
    script = REPO / "bench" / "peer" / "anchor.mjs"
    if not (REPO / "bench" / "peer" / "node_modules" / "approx-string-match").exists():
        subprocess.run(["npm", "ci", "--prefix", str(script.parent), "--no-audit", "--no-fund",
                        "--silent"], check=True)
    run = subprocess.run(["node", str(script), str(cases_path), str(results_path)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"peer failed:\n{run.stderr[-4000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=12, help="PDFs to use")
    ap.add_argument("--spans", type=int, default=100, help="spans per document")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-kb", type=int, default=1200, help="largest PDF used, KiB")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "citestore-pdf"))
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    pdfs = [p for p in fetch_pdfs(work) if 100 * 1024 <= p.stat().st_size <= args.max_kb * 1024]
    rng = random.Random(args.seed)
    rng.shuffle(pdfs)
    python = venv_python(work)
    texts = {}
    for pdf in pdfs:
        if len(texts) == args.docs:
            break
        t = extract(work, python, pdf)
        if t and all(len(t[k]) > 5000 for k in ("pdftotext", *EXTRACTORS)):
            texts[pdf.name] = t
    started = time.time()
    all_docs, by_extractor = {}, {}
    for which in EXTRACTORS:
        cases, docs = [], {}
        for name, t in texts.items():
            old, new = t["pdftotext"], t[which]
            a, old_raw = project(old)
            b, new_raw = project(new)
            amap = align(a, b)
            grams = gram_pairs(a, b)
            key = f"{name}->{which}"
            spans = word_spans(old, random.Random(f"{args.seed}:{name}"), args.spans)
            docs[key] = {"doc": key, "old": old, "new": new, "spans": spans}
            for i, (s, e) in enumerate(spans):
                cases.append({"doc": key, "i": i, "start": s, "end": e,
                              **classify(old, new, a, b, old_raw, new_raw, amap, grams, s, e)})
        by_extractor[which] = cases
        all_docs.update(docs)
    oracle_seconds = time.time() - started
    cases_path, results_path = work / "docs.jsonl", work / "results.jsonl"
    peer_path = work / "peer.jsonl"
    with open(cases_path, "w") as f:
        for d in all_docs.values():
            f.write(json.dumps(d) + "\n")
    timing = run_citestore(cases_path, results_path)
    peer_timing = run_peer(cases_path, peer_path)
    results = {}
    for path in (results_path, peer_path):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                results[(r["system"], r["doc"], r["i"])] = r
    systems = [("sweep", "citestore"), ("peer", "Hypothesis-style peer")]
    print(f"{len(texts)} PDFs of {PACKAGE} ({', '.join(sorted(texts))}); "
          f"{sum(len(c) for c in by_extractor.values())} citations; oracle {oracle_seconds:.0f} s\n")
    for which in EXTRACTORS:
        cases = by_extractor[which]
        scored = {s: score(cases, results, all_docs, s) for s, _ in systems}
        print(f"### pdftotext -> {which} ({len(cases)} citations)\n")
        print("| line | target | " + " | ".join(n for _, n in systems) + " |")
        print("|---|---|" + "---:|" * len(systems))
        print("| false anchors (intact/moved, text at the span is not the cited text) | 0 | "
              + " | ".join(f"{scored[s]['false_anchors']} of {scored[s]['anchored']}"
                           for s, _ in systems) + " |")
        rows = [("verbatim at the oracle's place (intact/moved there)", "verbatim", ">= 99.9%"),
                ("light edits (>= 90% of letters survive) placed, IoU >= 0.5", "light", ">= 98.5%"),
                ("50-90% of letters survive: placed, IoU >= 0.5", "50-90", "-"),
                ("20-50% of letters survive: placed, IoU >= 0.5", "20-50", "-"),
                ("deleted (< 20% survive) -> lost", "deleted", ">= 95%")]
        for label, cat, target in rows:
            print(f"| {label} | {target} | "
                  + " | ".join(pct(scored[s]["counts"][cat]) for s, _ in systems) + " |")
        print()
    ratio = timing["sweep_seconds_per_citation"] / peer_timing["seconds_per_citation"]
    print("| seconds per case (all citations) | citestore (release, DocumentSweep) | peer (node) "
          "| ratio |")
    print("|---|---:|---:|---:|")
    print(f"| | {timing['sweep_seconds_per_citation']:.2e} | "
          f"{peer_timing['seconds_per_citation']:.2e} | {ratio:.3f}x |")
    misses = []
    for which in EXTRACTORS:
        for c in by_extractor[which]:
            r = results[("sweep", c["doc"], c["i"])]
            if c["category"] in ("verbatim", "light", "50-90", "deleted") and not score(
                    [c], results, all_docs, "sweep")["counts"][c["category"]][0]:
                misses.append({**c, "got": r, "peer": results[("peer", c["doc"], c["i"])]})
    with open(work / "misses.jsonl", "w") as f:
        for m in misses:
            f.write(json.dumps(m) + "\n")
    print(f"\ncitestore misses written to {work / 'misses.jsonl'} ({len(misses)})")


if __name__ == "__main__":
    main()
