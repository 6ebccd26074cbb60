#!/usr/bin/env python3
"""An HTML loader switch, end to end through the `citestore` binary (issue 24, item 6).

HTML pages of a Debian documentation package (python3.11-doc 3.11.2-6+deb12u9: the Python 3.11
manual as Sphinx built it, /usr/share/doc/python3.11/html) are extracted by two loaders RAG
teams use, pinned and installed from PyPI into a virtualenv in the work folder:

- OLD text (what was ingested and cited): BeautifulSoup `BeautifulSoup(html, "html.parser")
  .get_text()` (beautifulsoup4==4.14.3);
- NEW text (the team switched loaders): html2text==2025.4.15 as LangChain's
  Html2TextTransformer runs it (`ignore_links = True`, `ignore_images = True`, everything else
  default: Markdown, lines wrapped at 78); with `--new inscriptis` inscriptis==2.7.6
  (`get_text(html)`); with `--new trafilatura` trafilatura==2.0.0 (`extract(html,
  include_comments=False, include_tables=True)`: main content only, navigation dropped; it
  needs lxml_html_clean==0.4.6 beside lxml 6).

Per page W/docs/<page>.txt holds the OLD text; then, through the binary, as
bench/sphinx_cli_accuracy.py does (its `run`, `write_docs` and `cite_document` are imported):
`ingest --chunker paragraph:1500`; per page `context --json`, an answer with one claim per picked
span, `cite --json` (only spans cited `exact` at the picked span are scored); a re-chunk-only
sweep on the unchanged OLD text (`sweep --chunker paragraph:700`: every citation must stay
`intact` at its cited span); W/docs/ overwritten with the NEW text; `sweep --chunker
chars:1000:100 --json`; `export`; then a second re-chunk-only sweep on the NEW text (`--chunker
paragraph:1500`: no citation's status or span may change) and `export` again.

Spans: ~N word-aligned spans of 40-250 chars per page (bench/pdf_accuracy.py's `word_spans`).
Oracle: bench/pdf_accuracy.py's letters projection (lowercase letters and digits, NFKD, aligned
by unique grams on an increasing chain, difflib between them; no code shared with the engine),
its categories (verbatim, light >= 90% of letters survive, 50-90%, 20-50%, deleted < 20%) and
its `score` (IoU >= 0.5 against the oracle's region). The Hypothesis-style peer
(bench/peer/anchor.mjs, `npm ci --prefix bench/peer`) runs on exactly the same pages and spans
in the same run.

Usage: python3 bench/html_accuracy.py [--docs 30] [--spans 60] [--seed 1]
       [--new html2text|inscriptis|trafilatura]
       [--binary PATH] [--work DIR]
--binary defaults to REPO/target/release/citestore (`cargo build --release` makes it; the script
does not build). Needs: apt-get (download only), dpkg-deb, python3 -m venv + pip (PyPI), node.
Downloads: the python3.11-doc .deb (12.6 MB), the pinned wheels above. Prints markdown tables;
writes W/misses.jsonl (citestore misses, with the peer's answer and what changed).
"""

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE, PACKAGE_VERSION = "python3.11-doc", "3.11.2-6+deb12u9"
HTML_ROOT = "usr/share/doc/python3.11/html"
PINS = {"bs4": "beautifulsoup4==4.14.3", "html2text": "html2text==2025.4.15",
        "inscriptis": "inscriptis==2.7.6", "trafilatura": "trafilatura==2.0.0"}
EXTRA_PINS = ["lxml_html_clean==0.4.6"]  # trafilatura 2.0.0's jusText needs it with lxml >= 5.2
NEW_LOADERS = ("html2text", "inscriptis", "trafilatura")
CHUNKERS = {"cite": "paragraph:1500", "rechunk_old": "paragraph:700", "sweep": "chars:1000:100",
            "rechunk_new": "paragraph:1500"}

EXTRACT = r"""
import json, sys
loader, pages, out = sys.argv[1], json.load(open(sys.argv[2])), {}
if loader == "bs4":
    from bs4 import BeautifulSoup
    run = lambda html: BeautifulSoup(html, "html.parser").get_text()
elif loader == "html2text":
    import html2text
    def run(html):
        h = html2text.HTML2Text()
        h.ignore_links = True
        h.ignore_images = True
        return h.handle(html)
elif loader == "inscriptis":
    from inscriptis import get_text as run
else:
    import trafilatura
    run = lambda html: trafilatura.extract(html, include_comments=False, include_tables=True) or ""
for p in pages:
    out[p] = run(open(p, encoding="utf-8").read())
json.dump(out, open(sys.argv[3], "w"))
"""


def load(name: str):
    """bench/<name>.py as a module."""
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pa = load("pdf_accuracy")          # letters oracle, word_spans, score, pct, run_peer
scli = load("sphinx_cli_accuracy")  # run, write_docs, cite_document (through the binary)


# ----- data ---------------------------------------------------------------------------------------

def fetch_pages(work: Path) -> list:
    pkg = work / "pkg"
    if not pkg.exists():
        debs = list(work.glob(f"{PACKAGE}_*.deb"))
        if not debs:
            subprocess.run(["apt-get", "download", f"{PACKAGE}={PACKAGE_VERSION}"], cwd=work,
                           check=True)
            debs = list(work.glob(f"{PACKAGE}_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(pkg)], check=True)
    root = pkg / HTML_ROOT
    skip = ("genindex", "search.html", "py-modindex", "contents.html")
    return sorted(p for p in root.rglob("*.html")
                  if not p.relative_to(root).parts[0].startswith("_")
                  and not p.name.startswith(skip))


def venv_python(work: Path) -> str:
    python = work / "venv" / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PINS.values(), *EXTRA_PINS],
                   check=True)
    return str(python)


def extract(work: Path, python: str, loader: str, pages: list) -> dict:
    """{page path: text} by `loader`, one venv process for the pages not yet in its cache."""
    cache = work / f"extractions-{loader}.json"
    out = json.loads(cache.read_text()) if cache.exists() else {}
    todo = [str(p) for p in pages if str(p) not in out]
    if todo:
        listing, fresh = work / "pages.json", work / "fresh.json"
        listing.write_text(json.dumps(todo))
        subprocess.run([python, "-c", EXTRACT, loader, str(listing), str(fresh)], check=True)
        out.update(json.loads(fresh.read_text()))
        cache.write_text(json.dumps(out))
    return out


# ----- the flow through the binary (shared with bench/releases_accuracy.py) -----------------------

def sweep(db: str, chunker: str) -> tuple:
    started = time.perf_counter()
    summary = json.loads(scli.run(["--db", db, "sweep", "--chunker", chunker, "--json"],
                                  ok=(0, 1)))
    return summary, time.perf_counter() - started


def export(db: str) -> dict:
    out = {}
    for line in scli.run(["--db", db, "export"]).splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["id"]] = row
    return out


def place(row: dict) -> tuple:
    cur = row["current"] or {}
    return row["status"], cur.get("start"), cur.get("end"), cur.get("revision")


def rechunk_check(db: str, chunker: str, before: dict, ids: list, must_be_intact: bool) -> dict:
    """A sweep with only the chunker changed (same text): how many of `ids` kept status and span
    (and, when `must_be_intact`, are `intact` at the span they were cited at)."""
    summary, wall = sweep(db, chunker)
    after = export(db)
    kept = bad = 0
    examples = []
    for cid in ids:
        a, b = before[cid], after[cid]
        ok = place(a) == place(b)
        if must_be_intact:
            ok = ok and b["status"] == "intact" and place(b)[1:3] == (b["start"], b["end"])
        kept += ok
        if not ok:
            bad += 1
            if len(examples) < 5:
                examples.append({"id": cid, "before": place(a), "after": place(b)})
    return {"chunker": chunker, "kept": kept, "total": len(ids), "examples": examples,
            "rechunked": summary["rechunked"], "reanchored": summary["citations_reanchored"],
            "anchors_written": summary["anchors_written"],
            "wall": wall, "after": after}


def cited_results(records: dict, exported: dict, old_files: dict, key_of, problems: list,
                  rev_of=None) -> tuple:
    """Scored citations from `cite_document` records and an export: ({("cli", key, i): result},
    [(key, i)] cited exactly, Counter of verdicts, Counter of (verdict, why) not cited)."""
    results, cited, verdicts, why = {}, [], Counter(), Counter()
    for doc, recs in records.items():
        key, old = key_of(doc), old_files[doc]
        for i, rec in enumerate(recs):
            verdicts[rec["verdict"]] += 1
            s, e = rec["start"], rec["end"]
            if rec["verdict"] != "exact" or rec["cited_span"] != [s, e]:
                why[(rec["verdict"], "crosses a chunk boundary" if rec["crosses_chunk"]
                     else "repeated inside its chunk" if rec["repeated_in_chunk"]
                     else "other")] += 1
                continue
            line = exported.get(rec["citation"])
            if line is None:
                problems.append(f"{key}#{i}: citation {rec['citation']} not exported")
                continue
            if line["quote"] != old[s:e] or [line["start"], line["end"]] != [s, e]:
                problems.append(f"{key}#{i}: exported citation is not the cited span")
            cur = line["current"]
            if line["status"] != "lost" and rev_of is not None and (
                    cur is None or cur["revision"] != rev_of(doc)):
                problems.append(f"{key}#{i}: {line['status']} but current = {cur}")
            start, end = (s, e) if line["status"] == "lost" else (cur["start"], cur["end"])
            results[("cli", key, i)] = {"status": line["status"], "start": start, "end": end,
                                        "method": (cur or {}).get("method"),
                                        "score": (cur or {}).get("score"),
                                        "reason": (cur or {}).get("reason"), "id": line["id"]}
            cited.append((key, i))
    return results, cited, verdicts, why


def run_peer(work: Path, docs: dict, name: str) -> tuple:
    """bench/peer/anchor.mjs on `docs` ({key: {"doc","old","new","spans"}}): (results, timing)."""
    cases_path, results_path = work / f"{name}-cases.jsonl", work / f"{name}-peer.jsonl"
    with open(cases_path, "w") as f:
        for d in docs.values():
            f.write(json.dumps(d) + "\n")
    timing = pa.run_peer(cases_path, results_path)
    results = {}
    with open(results_path) as f:
        for line in f:
            r = json.loads(line)
            results[(r["system"], r["doc"], r["i"])] = r
    return results, timing


def table(rows: list, scored: dict, systems: list) -> list:
    """Markdown lines: false anchors, then one line per (label, category, target)."""
    out = ["| line | target | " + " | ".join(n for _, n in systems) + " |",
           "|---|---|" + "---:|" * len(systems),
           "| false anchors (intact/moved, text at the span is not the cited text) | 0 | "
           + " | ".join(f"{scored[s]['false_anchors']} of {scored[s]['anchored']}"
                        for s, _ in systems) + " |"]
    for label, cat, target in rows:
        out.append(f"| {label} | {target} | "
                   + " | ".join(pa.pct(scored[s]["counts"][cat]) for s, _ in systems) + " |")
    return out


def lost_reason(db: str, result: dict) -> dict:
    """`export` prints no `current` for a lost citation; `show --json`'s last history entry
    says why (score of the best candidate, method, reason). Added to `result` in place."""
    if result.get("status") == "lost" and result.get("id"):
        history = json.loads(scli.run(["--db", db, "show", result["id"], "--json"]))["history"]
        if history:
            last = history[-1]
            result.update(score=last.get("score"), method=last.get("method"),
                          reason=last.get("reason"))
    return result


def commit_of() -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                          text=True).stdout.strip() or "unknown commit"


# ----- what changed inside a missed span ----------------------------------------------------------

ADMONITIONS = {"note", "warning", "see also", "tip", "important", "caution", "attention", "hint",
               "danger", "error", "todo"}
NAV = ("table of contents", "previous topic", "next topic", "this page", "report a bug",
       "show source", "navigation", "quick search", "theme", "index", "modules", "next",
       "previous", "python", "documentation", "»", "|")


def what_changed(old: str, new: str, a_raw: list, amap: list, start: int, end: int) -> str:
    """A cheap label for what the NEW loader did to the span: whole old lines whose letters all
    vanished (by their kind), else letters lost inside lines, else only layout/markup."""
    import bisect
    lo, hi = bisect.bisect_left(a_raw, start), bisect.bisect_left(a_raw, end)
    lines = {}
    for k in range(lo, hi):
        ls = old.rfind("\n", 0, a_raw[k]) + 1
        lines.setdefault(ls, [0, 0])
        lines[ls][0] += 1
        lines[ls][1] += amap[k] < 0
    dropped = []
    for ls, (n, gone) in lines.items():
        if gone == n:
            le = old.find("\n", ls)
            dropped.append(old[ls:le if le >= 0 else len(old)].strip())
    lost = sum(g for _, g in lines.values())
    if dropped:
        kinds = set()
        for d in dropped:
            low = d.lower().rstrip(":¶ ")
            if low in ADMONITIONS:
                kinds.add("admonition title")
            elif low.startswith(("changed in version", "new in version", "deprecated since")):
                kinds.add("version note")
            elif any(low == n or low.startswith(n + " ") for n in NAV) or len(low) <= 3:
                kinds.add("navigation/label line")
            elif d.endswith("¶"):
                kinds.add("heading or signature (¶ line)")
            else:
                kinds.add("text line")
        return "whole old line(s) dropped: " + ", ".join(sorted(kinds))
    if lost:
        return "letters lost inside lines (words dropped or replaced)"
    return "no letter lost (layout/markup only)"


# ----- main ---------------------------------------------------------------------------------------

ROWS = [("verbatim at the oracle's place (intact/moved there)", "verbatim", ">= 99.9%"),
        ("light edits (>= 90% of letters survive) placed, IoU >= 0.5", "light", ">= 98%, >= peer"),
        ("50-90% of letters survive: placed, IoU >= 0.5", "50-90", ">= 80%, >= peer"),
        ("20-50% of letters survive: placed, IoU >= 0.5", "20-50", "-"),
        ("deleted (< 20% survive) -> lost", "deleted", ">= 95%")]


def html_documents(root: Path, args) -> dict:
    """{name.txt: (OLD, NEW)}: the pages picked, extracted by both loaders."""
    pages = fetch_pages(root)
    python = venv_python(root)
    olds = extract(root, python, "bs4", pages)
    html_root = root / "pkg" / HTML_ROOT
    order = sorted(p for p, t in olds.items() if 5_000 <= len(t) <= args.max_chars)
    random.Random(args.seed).shuffle(order)
    news = extract(root, python, args.new, order[:2 * args.docs])
    chosen = {}
    for p in order[:2 * args.docs]:
        old, new = olds[p], news[p]
        if len(new) >= 2_000 and old != new:
            chosen[str(Path(p).relative_to(html_root).with_suffix(".txt"))] = (old, new)
        if len(chosen) == args.docs:
            break
    return chosen


def pdf_documents(pdf_work: Path, args) -> dict:
    """{name.pdf.txt: (pdftotext's text, args.pdf's)}: bench/pdf_accuracy.py's PDFs, picked
    as it picks them (same seed, same size limits, same texts)."""
    pdf_work.mkdir(parents=True, exist_ok=True)
    pdfs = [p for p in pa.fetch_pdfs(pdf_work) if 100 * 1024 <= p.stat().st_size <= 1200 * 1024]
    random.Random(args.seed).shuffle(pdfs)
    python = pa.venv_python(pdf_work)
    chosen = {}
    for pdf in pdfs:
        if len(chosen) == args.docs:
            break
        t = pa.extract(pdf_work, python, pdf)
        if t and all(len(t[k]) > 5000 for k in ("pdftotext", *pa.EXTRACTORS)):
            chosen[f"{pdf.name}.txt"] = (t["pdftotext"], t[args.pdf])
    return chosen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=30, help="HTML pages to use")
    ap.add_argument("--spans", type=int, default=60, help="spans picked per page")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--new", choices=NEW_LOADERS, default="html2text", help="the NEW loader")
    ap.add_argument("--pdf", choices=pa.EXTRACTORS,
                    help="instead of HTML pages: bench/pdf_accuracy.py's PDFs, OLD = pdftotext, "
                         "NEW = this extractor (use --docs 12 --spans 100 for its sample)")
    ap.add_argument("--pdf-work", default=os.path.join(tempfile.gettempdir(), "citestore-pdf"),
                    help="bench/pdf_accuracy.py's work folder (its package and virtualenv)")
    ap.add_argument("--max-chars", type=int, default=120_000, help="largest OLD text used")
    ap.add_argument("--binary", default=str(REPO / "target" / "release" / "citestore"))
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "citestore-html"))
    args = ap.parse_args()
    scli.BINARY = Path(args.binary).resolve()
    if not scli.BINARY.exists():
        sys.exit(f"{scli.BINARY} does not exist: `cargo build --release` makes it")
    root = Path(args.work).resolve()
    root.mkdir(parents=True, exist_ok=True)
    os.chdir(root)  # no citestore.toml of the caller's folder is picked up
    t0 = time.time()

    if args.pdf:
        chosen = pdf_documents(Path(args.pdf_work).resolve(), args)
        source = (f"{pa.PACKAGE} PDFs ({len(chosen)}, seed {args.seed}, as bench/pdf_accuracy.py "
                  f"picks them); OLD = pdftotext, NEW = {args.pdf}")
        run_name = f"run-{args.seed}-pdf-{args.pdf}"
    else:
        chosen = html_documents(root, args)
        source = (f"{PACKAGE} {PACKAGE_VERSION}, {len(chosen)} pages (seed {args.seed}); OLD = "
                  f"BeautifulSoup get_text ({PINS['bs4']}), NEW = {args.new} ({PINS[args.new]})")
        run_name = f"run-{args.seed}-{args.new}"
    old_files = {k: v[0] for k, v in chosen.items()}
    new_files = {k: v[1] for k, v in chosen.items()}

    # Oracle and spans.
    oracle, spans_by_doc, docs, cases_all = {}, {}, {}, {}
    for name in sorted(chosen):
        old, new = old_files[name], new_files[name]
        a, a_raw = pa.project(old)
        b, b_raw = pa.project(new)
        amap = pa.align(a, b)
        grams = pa.gram_pairs(a, b)
        # A PDF's spans are bench/pdf_accuracy.py's: seeded by the PDF's name.
        seed_name = name.removesuffix(".txt") if args.pdf else name
        spans = pa.word_spans(old, random.Random(f"{args.seed}:{seed_name}"), args.spans)
        spans_by_doc[name] = spans
        docs[name] = {"doc": name, "old": old, "new": new, "spans": spans}
        oracle[name] = (a_raw, amap)
        for i, (s, e) in enumerate(spans):
            cases_all[(name, i)] = {"doc": name, "i": i, "start": s, "end": e,
                                    **pa.classify(old, new, a, b, a_raw, b_raw, amap, grams, s, e)}
    oracle_seconds = time.time() - t0

    # Through the binary.
    work = root / run_name
    if work.exists():
        subprocess.run(["rm", "-rf", str(work)], check=True)
    (work / "docs").mkdir(parents=True)
    db = str(work / "cs.db")
    names = sorted(spans_by_doc)
    scli.write_docs(work / "docs", old_files, names)
    scli.run(["--db", db, "ingest", str(work / "docs"), "--chunker", CHUNKERS["cite"], "--json"])
    records = {d: scli.cite_document(db, work, d, old_files[d], spans_by_doc[d]) for d in names}
    cited_ids = [r["citation"] for recs in records.values() for r in recs
                 if r["verdict"] == "exact" and r["cited_span"] == [r["start"], r["end"]]]
    before = export(db)
    pre = rechunk_check(db, CHUNKERS["rechunk_old"], before, cited_ids, must_be_intact=True)
    scli.write_docs(work / "docs", new_files, names)
    summary, wall = sweep(db, CHUNKERS["sweep"])
    exported = export(db)
    post = rechunk_check(db, CHUNKERS["rechunk_new"], exported, cited_ids, must_be_intact=False)
    problems = [f"sweep errors: {summary['errors']}"] if summary["errors"] else []
    results, cited, verdicts, not_cited = cited_results(records, exported, old_files,
                                                        lambda d: d, problems, lambda d: 2)
    peer, peer_timing = run_peer(root, docs, run_name)
    results.update(peer)
    cases = [cases_all[k] for k in cited]
    systems = [("cli", "citestore (ingest, cite, sweep, export)"), ("peer", "Hypothesis-style peer")]
    scored = {s: pa.score(cases, results, docs, s) for s, _ in systems}

    picked = sum(len(v) for v in spans_by_doc.values())
    print(f"citestore at {commit_of()} ({scli.BINARY}); {source}")
    print(f"{picked} picked spans, {len(cases)} cited exactly and scored, "
          f"{picked - len(cases)} not cited; {time.time() - t0:.0f} s in all "
          f"(oracle {oracle_seconds:.0f} s)\n")
    print("\n".join(table(ROWS, scored, systems)))
    print(f"| seconds per citation | - | {wall / max(1, summary['citations_reanchored']):.2e} "
          f"(wall, whole `sweep` process) | {peer_timing['seconds_per_citation']:.2e} (node, "
          f"matching only) |")
    print(f"\nsweep: {wall:.2f} s wall, {summary['citations_reanchored']} citations re-anchored, "
          f"status {summary['status']}, method {summary['method']}")
    for label, chk in (("on the OLD text (`" + CHUNKERS["rechunk_old"] + "`, before the switch): "
                        "intact at the cited span", pre),
                       ("on the NEW text (`" + CHUNKERS["rechunk_new"] + "`, after the sweep): "
                        "status and span unchanged", post)):
        print(f"re-chunk-only sweep {label}: {pa.pct((chk['kept'], chk['total']))}; "
              f"{chk['rechunked']} documents re-chunked, {chk['reanchored']} citations "
              f"re-anchored, {chk['anchors_written']} anchors written"
              + (f"; e.g. {chk['examples']}" if chk["examples"] else ""))
    print("cite verdicts of the picked spans: "
          + ", ".join(f"{v} {n}" for v, n in verdicts.most_common()))
    print("not cited (verdict, why): "
          + (", ".join(f"{v} / {w}: {n}" for (v, w), n in sorted(not_cited.items())) or "none"))

    # Misses, with what changed.
    misses, kinds = [], Counter()
    for c in cases:
        sub = pa.score([c], results, docs, "cli")
        if sub["false_anchors"] or not sub["counts"][c["category"]][0]:
            a_raw, amap = oracle[c["doc"]]
            what = what_changed(old_files[c["doc"]], new_files[c["doc"]], a_raw, amap,
                                c["start"], c["end"])
            r = lost_reason(db, results[("cli", c["doc"], c["i"])])
            kinds[(c["category"], r["status"], what)] += 1
            misses.append({**c, "what_changed": what, "cli": r,
                           "peer": results[("peer", c["doc"], c["i"])],
                           "old_text": old_files[c["doc"]][c["start"]:c["end"]],
                           "new_text": (new_files[c["doc"]][c["expected"][0]:c["expected"][1]]
                                        if c.get("expected") else None)})
    path = root / f"misses-{run_name.removeprefix('run-')}.jsonl"
    with open(path, "w") as f:
        for m in misses:
            f.write(json.dumps(m, ensure_ascii=False) + "\n")
    print(f"\ncitestore misses by class, status given and what changed ({len(misses)}, written "
          f"to {path}):")
    print("| class | citestore said | what the NEW loader changed in the span | count |")
    print("|---|---|---|---:|")
    for (cat, status, what), n in sorted(kinds.items(), key=lambda kv: (ROW_ORDER[kv[0][0]],
                                                                        -kv[1])):
        print(f"| {cat} | {status} | {what} | {n} |")
    for p in problems[:20]:
        print("PROBLEM:", p)
    if problems:
        print(f"PROBLEMS: {len(problems)}")


ROW_ORDER = {cat: k for k, (_, cat, _) in enumerate(ROWS)}

if __name__ == "__main__":
    main()
