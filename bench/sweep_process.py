#!/usr/bin/env python3
"""The whole `citestore sweep` process beside the peer's whole process, same cases, same run
(issue 27, first Must-show item).

For each set, the documents, spans and store are the accuracy harnesses' (their functions are
imported, not copied):

- pdf: bench/pdf_accuracy.py's PDFs (texlive-science-doc, `--pdf-docs 24`, seed 1, as
  bench/html_accuracy.py --pdf picks them), OLD = pdftotext, NEW = pdfminer.six (`--pdf pypdf`
  for the other extractor), 100 spans a document;
- sphinx: bench/sphinx_cli_accuracy.py's Sphinx 6.2.1 -> 7.2.6 doc/*.rst (changed files), its
  span sample (2,000 spans, seed 5);
- html: bench/html_accuracy.py's python3.11-doc pages (30 pages, 60 spans each, seed 1),
  OLD = BeautifulSoup get_text, NEW = html2text.

Preparation, once per set, through the binary as the harness does it: the OLD texts in W/SET/docs,
`ingest --chunker paragraph:1500`, per document `context --json` + `cite --json`
(`cite_document`); for pdf and html the harness's re-chunk-only sweep on the OLD text
(`sweep --chunker paragraph:700`); then W/SET/docs overwritten with the NEW texts. The store file
is kept as W/SET/prepared.db. The peer's input W/SET/peer-cases.jsonl holds, per document, the
OLD and NEW texts and the span of every citation in the prepared store (from `export`), so both
sides re-anchor exactly the same citations.

Timed, alternating A B A B ... after one untimed warm-up of each, `--runs` times (default 5):

- A: `citestore --db W/SET/run.db sweep --chunker chars:1000:100 --json` (stdout to a file), on
  a fresh copy of prepared.db made before the clock starts (the copy is not timed);
- B: `node bench/peer/anchor.mjs W/SET/peer-cases.jsonl W/SET/peer-out.jsonl`.

Each run's wall time is `time.perf_counter()` just before `Popen` and just after `os.wait4`
reaps the child; user + system CPU and peak RSS are the kernel's rusage of that child. Reported
per set: median (min-max) of each side, the ratio of the medians and the median of the per-pair
ratios, and for the PDF set MB of NEW text (UTF-8, 10^6 bytes) re-anchored per second of the
citestore median. After the timing one more sweep is checked: it re-anchors as many citations as
the peer's input holds, with no errors.

With `--profile`, one more sweep per set runs under `perf record --call-graph dwarf` and
`perf report --children --sort symbol --stdio -g none` (inclusive cost per symbol) is written to
W/SET/perf-report.txt, and each CPU sample is put in a phase (the first of PHASES whose marker
function is in its call stack, `perf script --no-inline`); one more sweep under `strace -f -T`
adds the time spent in fsync, fdatasync and unlink (off CPU, so not in the samples).

Usage: python3 bench/sweep_process.py [--sets pdf,sphinx,html] [--runs 5] [--pdf pdfminer|pypdf]
       [--pdf-docs 24] [--profile] [--binary PATH] [--work DIR]
--binary defaults to REPO/target/release/citestore (`cargo build --release`; the script does not
build). Needs what the three harnesses need (apt-get download, pip, node + `npm ci --prefix
bench/peer`), and perf for --profile. Prints markdown.
"""

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import html_accuracy as ha  # noqa: E402  (also loads pdf_accuracy and sphinx_cli_accuracy)

pa, scli = ha.pa, ha.scli
sa = scli.sa
PEER = REPO / "bench" / "peer" / "anchor.mjs"
SWEEP_CHUNKER = "chars:1000:100"


# ----- the sets: {doc name: (OLD, NEW)} and {doc name: spans}, as each harness picks them ----------

def pdf_set(args) -> tuple:
    ns = argparse.Namespace(docs=args.pdf_docs, seed=1, pdf=args.pdf)
    chosen = ha.pdf_documents(Path(args.pdf_work).resolve(), ns)
    spans = {name: pa.word_spans(old, random.Random(
        f"1:{name.removesuffix('.txt')}"), 100) for name, (old, _) in chosen.items()}
    label = (f"{pa.PACKAGE}: {len(chosen)} PDFs (seed 1), OLD = pdftotext, NEW = {args.pdf}, "
             f"100 spans each")
    return chosen, spans, label, True


def html_set(args) -> tuple:
    root = Path(args.html_work).resolve()
    root.mkdir(parents=True, exist_ok=True)
    ns = argparse.Namespace(docs=30, seed=1, new="html2text", max_chars=120_000)
    chosen = ha.html_documents(root, ns)
    spans = {name: pa.word_spans(old, random.Random(f"1:{name}"), 60)
             for name, (old, _) in chosen.items()}
    label = (f"{ha.PACKAGE} {ha.PACKAGE_VERSION}: {len(chosen)} pages (seed 1), OLD = "
             f"BeautifulSoup get_text, NEW = html2text, 60 spans each")
    return chosen, spans, label, True


def sphinx_set(args) -> tuple:
    root = Path(args.sphinx_work).resolve()
    root.mkdir(parents=True, exist_ok=True)
    versions = sa.download(root)
    old_files, new_files = versions[sa.VERSIONS[0]], versions[sa.VERSIONS[1]]
    pairs = sorted(p for p in old_files if p in new_files and old_files[p] != new_files[p])
    maps = {p: sa.char_map(old_files[p], new_files[p]) for p in pairs}
    spans = scli.sample(pairs, old_files, new_files, maps, 5, 2000)
    chosen = {p: (old_files[p], new_files[p]) for p in spans}
    label = (f"Sphinx {sa.VERSIONS[0]} -> {sa.VERSIONS[1]} doc/*.rst: {len(chosen)} changed "
             f"files, 2,000 spans (seed 5)")
    return chosen, spans, label, False


SETS = {"pdf": pdf_set, "sphinx": sphinx_set, "html": html_set}


# ----- preparation -------------------------------------------------------------------------------

def prepare(work: Path, chosen: dict, spans: dict, rechunk_first: bool) -> dict:
    """The store cited on the OLD texts, the NEW texts in place, the peer's input: facts."""
    if work.exists():
        shutil.rmtree(work)
    docs = work / "docs"
    docs.mkdir(parents=True)
    db = str(work / "cs.db")
    names = sorted(chosen)
    old = {n: chosen[n][0] for n in names}
    new = {n: chosen[n][1] for n in names}
    scli.write_docs(docs, old, names)
    scli.run(["--db", db, "ingest", str(docs), "--chunker", "paragraph:1500", "--json"])
    for n in names:
        scli.cite_document(db, work, n, old[n], spans[n])
    if rechunk_first:
        scli.run(["--db", db, "sweep", "--chunker", "paragraph:700", "--json"], ok=(0, 1))
    exported = ha.export(db)
    by_doc = {}
    for row in exported.values():
        by_doc.setdefault(row["doc_id"], []).append([row["start"], row["end"]])
    missing = sorted(set(by_doc) - set(names))
    if missing:
        sys.exit(f"export names documents that were not written: {missing[:5]}")
    scli.write_docs(docs, new, names)
    shutil.copyfile(db, work / "prepared.db")
    for suffix in ("-wal", "-shm"):
        if os.path.exists(db + suffix):
            sys.exit(f"{db}{suffix} left behind: the prepared store is not one file")
    with open(work / "peer-cases.jsonl", "w") as f:
        for n in names:
            if n in by_doc:
                f.write(json.dumps({"doc": n, "old": old[n], "new": new[n],
                                    "spans": sorted(by_doc[n])}) + "\n")
    return {"docs": len(names), "citations": len(exported),
            "old_bytes": sum(len(t.encode("utf-8")) for t in old.values()),
            "new_bytes": sum(len(t.encode("utf-8")) for t in new.values()),
            "store_bytes": os.path.getsize(work / "prepared.db")}


# ----- timing ------------------------------------------------------------------------------------

def fresh_store(work: Path) -> str:
    db = work / "run.db"
    for suffix in ("", "-wal", "-shm", "-journal"):
        p = Path(str(db) + suffix)
        if p.exists():
            p.unlink()
    shutil.copyfile(work / "prepared.db", db)
    return str(db)


def sweep_cmd(binary: Path, db: str) -> list:
    return [str(binary), "--db", db, "sweep", "--chunker", SWEEP_CHUNKER, "--json"]


def peer_cmd(work: Path) -> list:
    return ["node", str(PEER), str(work / "peer-cases.jsonl"), str(work / "peer-out.jsonl")]


def timed(cmd: list, out_path: Path, ok=(0,)) -> dict:
    """One whole process: wall (perf_counter around spawn + reap), CPU and peak RSS (rusage)."""
    with open(out_path, "wb") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in ok:
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}:\n{out_path.read_text()[-4000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_kb": usage.ru_maxrss}


def time_set(work: Path, binary: Path, runs: int) -> dict:
    a_runs, b_runs = [], []
    for k in range(runs + 1):  # run 0 is the warm-up of each side, not counted
        a = timed(sweep_cmd(binary, fresh_store(work)), work / "sweep-out.json", ok=(0, 1))
        b = timed(peer_cmd(work), work / "peer-stdout.txt")
        if k:
            a_runs.append(a)
            b_runs.append(b)
    # A last sweep, checked: every citation of the peer's input re-anchored, no errors.
    summary = json.loads(scli.run(sweep_cmd(binary, fresh_store(work))[1:], ok=(0, 1)))
    peer_citations = json.loads((work / "peer-stdout.txt").read_text().strip().splitlines()[-1])
    # The fixed cost: the same sweep again on that swept store, nothing changed (process start,
    # store open, quick_check, every source looked at, nothing re-anchored).
    db = str(work / "run.db")
    again = [timed(sweep_cmd(binary, db), work / "again-out.json", ok=(0, 1))
             for _ in range(runs + 1)][1:]
    if json.loads((work / "again-out.json").read_text())["citations_reanchored"]:
        sys.exit(f"{work}: a second sweep re-anchored citations again")
    return {"a": a_runs, "b": b_runs, "summary": summary, "peer": peer_citations,
            "again": again}


def med(runs: list, key: str) -> float:
    return statistics.median(r[key] for r in runs)


def spread(runs: list, key: str, fmt="{:.3f}") -> str:
    vals = [r[key] for r in runs]
    return (f"{fmt.format(statistics.median(vals))} ({fmt.format(min(vals))}–"
            f"{fmt.format(max(vals))})")


# ----- profile -----------------------------------------------------------------------------------

# Each CPU sample goes to the first phase one of whose markers is in its call stack (perf script
# --no-inline: the functions that are frames of their own in the release build).
PHASES = [
    ("store open: PRAGMA quick_check over the whole file", ("Store::check_integrity",)),
    ("re-anchoring engine (DocumentSweep: diff, letters, locate; worker threads)",
     ("sweep::reanchor::compute", "sweep::DocumentSweep::")),
    ("anchor writes (record_anchors, swept_documents row)",
     ("sweep::run::finish", "Writer>::record_anchors", "Writer>::record_swept")),
    ("new revision stored (text, hashes, its chunks)",
     ("Writer>::store_extracted", "Writer>::store_revision")),
    ("re-chunk of the latest revision (ensure_chunked)", ("ensure_chunked", "Writer>::rechunk")),
    ("reads for re-anchoring (stale citations, chunks, old text)",
     ("stale_citations", "reanchor::gather", "sweep::run::prepare")),
    ("looking at the sources (stat, read, fingerprint)",
     ("sweep::source::look", "sweep::run::sight", "sweep::run::next_batch")),
    ("commits", ("Conn::end", "Writer::commit", "::commit")),
    ("store open (connection, pragmas, schema check)", ("Store::open", "store::open", "migrat")),
    ("rest of the sweep (sweeps row, tallies, batching)", ("sweep::run::sweep",)),
    ("store close (drop: SQLite's checkpoint of the WAL into the file)",
     ("drop_in_place<citestore::store::Store>",)),
    ("CLI around it (arguments, config, JSON output)", ("citestore::main",)),
    ("worker threads: spawn and exit", ("start_thread", "clone3")),
]
START = "process start-up and exit (exec, loader, relocation, libc, page faults before main)"


def profile(work: Path, binary: Path) -> tuple:
    """One sweep under perf: (path of the perf report, [(phase, samples, CPU ms)], total ms,
    {syscall: (calls, seconds)} of fsync/fdatasync/unlink from one more sweep under strace)."""
    data, report = work / "perf.data", work / "perf-report.txt"
    db = fresh_store(work)
    subprocess.run(["perf", "record", "-q", "--call-graph", "dwarf", "-F", "4000", "-o",
                    str(data), "--", *sweep_cmd(binary, db)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, DEBUGINFOD_URLS="")
    with open(report, "w") as f:
        subprocess.run(["perf", "report", "-i", str(data), "--children", "--sort", "symbol",
                        "--stdio", "-g", "none", "--percent-limit", "0.5"], stdout=f,
                       stderr=subprocess.DEVNULL, check=True, env=env)
    script = subprocess.run(["perf", "script", "-i", str(data), "-F", "tid,period,ip,sym",
                             "--no-inline"], capture_output=True, text=True, check=True,
                            env=env).stdout
    counts, io = {}, {}
    for block in script.split("\n\n"):
        lines = [ln.strip() for ln in block.strip().splitlines()]
        if not lines:
            continue
        try:
            period = int(lines[0].split()[-1])
        except (ValueError, IndexError):
            continue
        stack = "\n".join(lines[1:])
        phase = next((name for name, marks in PHASES if any(m in stack for m in marks)), START)
        n, ns = counts.get(phase, (0, 0))
        counts[phase] = (n + 1, ns + period)
    # Off-CPU time the samples do not see: the durable writes (strace -T, one more sweep).
    trace = work / "strace.txt"
    db = fresh_store(work)
    subprocess.run(["strace", "-f", "-T", "-e", "trace=fsync,fdatasync,unlink", "-o", str(trace),
                    *sweep_cmd(binary, db)], check=True, stdout=subprocess.DEVNULL)
    for line in trace.read_text().splitlines():
        call = next((c for c in ("fsync", "fdatasync", "unlink") if f" {c}(" in line), None)
        if call and line.rstrip().endswith(">"):
            secs = float(line.rsplit("<", 1)[1].rstrip(">"))
            n, total = io.get(call, (0, 0.0))
            io[call] = (n + 1, total + secs)
    order = [name for name, _ in PHASES] + [START]
    rows = [(name, *counts[name]) for name in order if name in counts]
    total = sum(ns for _, _, ns in rows)
    return report, [(name, n, ns / 1e6) for name, n, ns in rows], total / 1e6, io


# ----- main --------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default="pdf,sphinx,html")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each side (after 1 warm-up)")
    ap.add_argument("--pdf", choices=pa.EXTRACTORS, default="pdfminer")
    ap.add_argument("--pdf-docs", type=int, default=24)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--binary", default=str(REPO / "target" / "release" / "citestore"))
    tmp = tempfile.gettempdir()
    ap.add_argument("--work", default=os.path.join(tmp, "citestore-sweep-process"))
    ap.add_argument("--pdf-work", default=os.path.join(tmp, "citestore-pdf"))
    ap.add_argument("--html-work", default=os.path.join(tmp, "citestore-html"))
    ap.add_argument("--sphinx-work", default=os.path.join(tmp, "citestore-releases"),
                    help="where the Sphinx sdists are (downloaded when missing)")
    args = ap.parse_args()
    binary = Path(args.binary).resolve()
    if not binary.exists():
        sys.exit(f"{binary} does not exist: `cargo build --release` makes it")
    scli.BINARY = binary
    if not (PEER.parent / "node_modules" / "approx-string-match").exists():
        subprocess.run(["npm", "ci", "--prefix", str(PEER.parent), "--no-audit", "--no-fund",
                        "--silent"], check=True)
    root = Path(args.work).resolve()
    root.mkdir(parents=True, exist_ok=True)
    os.chdir(root)  # no citestore.toml of the caller's folder is picked up
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()
    print(f"citestore at {ha.commit_of()} ({binary}); node {node}; {os.cpu_count()} cores, "
          f"load average {load[0]:.1f} at the start; {platform.platform()}\n")
    rows, notes, reports = [], [], []
    for name in args.sets.split(","):
        chosen, spans, label, rechunk_first = SETS[name](args)
        work = root / name
        facts = prepare(work, chosen, spans, rechunk_first)
        t = time_set(work, binary, args.runs)
        a, b = t["a"], t["b"]
        pair = [x["wall"] / y["wall"] for x, y in zip(a, b)]
        s = t["summary"]
        if s["citations_reanchored"] != t["peer"]["citations"] or s["errors"]:
            notes.append(f"{name}: the sweep re-anchored {s['citations_reanchored']} citations "
                         f"({s['errors']} errors), the peer {t['peer']['citations']}")
        mbs = facts["new_bytes"] / 1e6 / med(a, "wall")
        rows.append(f"| {name} | {facts['docs']} | {facts['citations']:,} | "
                    f"{facts['old_bytes'] / 1e6:.2f} / {facts['new_bytes'] / 1e6:.2f} | "
                    f"{spread(a, 'wall')} | {spread(b, 'wall')} | "
                    f"**{med(a, 'wall') / med(b, 'wall'):.3f}×** | "
                    f"{statistics.median(pair):.3f}× ({min(pair):.3f}–{max(pair):.3f}) | "
                    f"{med(a, 'cpu'):.3f} / {med(b, 'cpu'):.3f} "
                    f"({med(a, 'cpu') / med(b, 'cpu'):.3f}×) | {spread(t['again'], 'wall')} | "
                    f"{med(a, 'rss_kb') / 1024:.0f} / {med(b, 'rss_kb') / 1024:.0f} | "
                    f"{mbs:.2f} |")
        notes.append(f"{name}: {label}; store {facts['store_bytes'] / 1e6:.1f} MB; sweep "
                     f"status {s['status']}, method {s['method']}, anchor_seconds "
                     f"{s.get('anchor_seconds', 0):.3f}; peer matching only "
                     f"{t['peer']['seconds']:.2f} s (its own clock, last run)")
        if args.profile:
            reports.append((name, profile(work, binary)))
        print(f"[{name} done, load average {os.getloadavg()[0]:.1f}]", file=sys.stderr)
    print(f"{args.runs} timed runs of each side, alternating, after one warm-up each; wall "
          f"seconds median (min–max)\n")
    print("| set | docs | citations | MB OLD / NEW text | citestore `sweep` (s) | peer (s) | "
          "ratio of medians | per-pair ratio, median (min–max) | CPU s, median: citestore / "
          "peer (ratio) | citestore `sweep` again, nothing changed (s) | peak RSS MiB: citestore / peer | MB/s of NEW text (citestore) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print()
    for n in notes:
        print(f"- {n}")
    floors = {"`citestore --version`": [str(binary), "--version"],
              "`node -e 0`": ["node", "-e", "0"]}
    got = {k: [timed(c, root / "floor.txt")["wall"] for _ in range(args.runs + 1)][1:]
           for k, c in floors.items()}
    print("- process floors (wall, median of " + str(args.runs) + "): " + ", ".join(
        f"{k} {1000 * statistics.median(v):.1f} ms" for k, v in got.items()))
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    for name, (report, rows, total, io) in reports:
        print(f"\n{name}: one sweep under `perf record --call-graph dwarf -F 4000`, "
              f"{total:.0f} ms of CPU samples (all threads); `perf report --children --sort "
              f"symbol` in {report}\n")
        print("| phase (first marker in the sample's stack) | samples | CPU ms | share |")
        print("|---|---:|---:|---:|")
        for phase, n, ms in rows:
            print(f"| {phase} | {n} | {ms:.1f} | {100 * ms / total:.1f}% |")
        print("\nOff CPU, not in the samples (one more sweep under `strace -f -T`): " + (", ".join(
            f"{c} ×{n} {1000 * t:.1f} ms" for c, (n, t) in sorted(io.items())) or "none"))


if __name__ == "__main__":
    main()
