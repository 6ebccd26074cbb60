#!/usr/bin/env python3
"""Re-anchoring accuracy on real text, end to end through the `citestore` binary.

The same Sphinx 6.2.1 -> 7.2.6 `doc/` data, the same span sampling and the same difflib oracle as
bench/sphinx_accuracy.py (its functions are imported, not copied), but every step is a command a
user would run:

1. `cargo build --release` once; target/release/citestore from then on;
2. per seed, in a fresh work dir W: the OLD text of every changed .rst file in W/docs/, then
   `citestore --db W/cs.db ingest W/docs --chunker paragraph:1500`;
3. per document: `citestore context --doc DOC --json` (labels, chunk offsets), an answer in the
   `citestore schema` format with one claim per picked span, evidence
   `{"chunk_id": <label of the chunk holding the span's first char>, "quote": <the span's old text>}`,
   then `citestore cite --context ID ANSWER --json`. A span becomes a scored citation only when its
   verdict is `exact` and the stored span is the picked one; every other verdict (a span crossing a
   chunk boundary, a quote repeated inside its chunk, ...) is counted and reported, not scored;
4. W/docs/ overwritten with the NEW texts; `citestore sweep --chunker chars:1000:100 --json`
   (wall time of the process) and `citestore export`; each exported line is matched to its span
   by the citation id `cite --json` printed;
5. every citation scored against the oracle with the lines of bench/RESULTS-sweep.md.

With `--engine` the script also runs the engine-level bench binary (`cargo bench --bench
reanchor_accuracy`, as bench/sphinx_accuracy.py does) on exactly the same documents and spans, and
scores it on the same cited subset, so the two columns differ only by what the CLI path adds.

Usage: python3 bench/sphinx_cli_accuracy.py [--spans 2000] [--seeds 1,2,3] [--noise] [--engine]
       [--work DIR]
Needs: pip (to download), cargo. Prints a markdown table; writes W/cli-misses.jsonl.
"""

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BINARY = REPO / "target" / "release" / "citestore"


def load_engine_script():
    """bench/sphinx_accuracy.py as a module (download, char_map, pick_spans, classify, score...)."""
    path = REPO / "bench" / "sphinx_accuracy.py"
    spec = importlib.util.spec_from_file_location("sphinx_accuracy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sa = load_engine_script()


def sample(pairs, old_files, new_files, maps, seed, spans_total):
    """{doc: sorted spans} for one seed, drawn exactly as bench/sphinx_accuracy.py's main() draws
    them (same rng calls in the same order), so both scripts cite the same spans. That loop is
    inline in its main(), hence this wrapper around its pick_spans."""
    rng = random.Random(seed)
    weights = [len(old_files[p]) for p in pairs]
    per_doc = {p: [0, 0] for p in pairs}
    for _ in range(spans_total // 2):
        per_doc[rng.choices(pairs, weights)[0]][0] += 1
        per_doc[rng.choices(pairs, weights)[0]][1] += 1
    out = {}
    for p in pairs:
        old, omap = old_files[p], maps[p]
        spans = sorted(set(sa.pick_spans(old, omap, rng, per_doc[p][0], True)
                           + sa.pick_spans(old, omap, rng, per_doc[p][1], False)))
        if spans:
            out[p] = spans
    return out


def run(args, cwd=None, ok=(0,)):
    """Runs a citestore command; its stdout (exits outside `ok` stop the script)."""
    done = subprocess.run([str(BINARY), *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode not in ok:
        sys.exit(f"citestore {' '.join(args)} exited {done.returncode}:\n{done.stderr[-4000:]}")
    return done.stdout


def write_docs(folder: Path, files: dict, paths: list) -> None:
    for p in paths:
        target = folder / p
        target.parent.mkdir(parents=True, exist_ok=True)
        # newline="" keeps the text byte-exact: offsets are chars of exactly this text.
        with open(target, "w", encoding="utf-8", newline="") as f:
            f.write(files[p])


def cite_document(db: str, work: Path, doc: str, old: str, spans: list) -> list:
    """Cites every span of `doc` through `context` + `cite`; one record per span."""
    context = json.loads(run(["--db", db, "context", "--doc", doc, "--json"]))
    chunks = sorted(context["chunks"], key=lambda c: c["start"])
    claims, labels = [], []
    for s, e in spans:
        chunk = next(c for c in chunks if c["start"] <= s < c["end"])
        labels.append(chunk)
        claims.append({"text": f"{doc} says what [{s}, {e}) says.",
                       "evidence": [{"chunk_id": chunk["label"], "quote": old[s:e]}]})
    answer = work / "answer.json"
    answer.write_text(json.dumps({"claims": claims}), encoding="utf-8")
    out = json.loads(run(["--db", db, "cite", "--context", context["context"], str(answer),
                          "--json"]))
    if len(out["claims"]) != len(spans):
        sys.exit(f"cite printed {len(out['claims'])} claims for {len(spans)} spans of {doc}")
    records = []
    for (s, e), chunk, claim in zip(spans, labels, out["claims"]):
        ev = claim["evidence"][0]
        crosses = e > chunk["end"]
        records.append({
            "start": s, "end": e, "verdict": ev["verdict"], "citation": ev["citation"],
            "cited_span": [ev["start"], ev["end"]] if ev["start"] is not None else None,
            "crosses_chunk": crosses,
            "repeated_in_chunk": (not crosses) and chunk["text"].count(old[s:e]) > 1,
            "reason": ev["reason"],
        })
    return records


def one_seed(seed, spans_by_doc, old_files, new_files, root: Path):
    """Steps 2-4 for one seed in a fresh folder; (records per doc, export by id, sweep info)."""
    work = root / f"seed-{seed}"
    if work.exists():
        shutil.rmtree(work)
    docs = work / "docs"
    docs.mkdir(parents=True)
    db = str(work / "cs.db")
    paths = sorted(spans_by_doc)
    write_docs(docs, old_files, paths)
    run(["--db", db, "ingest", str(docs), "--chunker", "paragraph:1500", "--json"])
    records = {doc: cite_document(db, work, doc, old_files[doc], spans_by_doc[doc])
               for doc in paths}
    write_docs(docs, new_files, paths)
    started = time.perf_counter()
    summary = json.loads(run(["--db", db, "sweep", "--chunker", "chars:1000:100", "--json"],
                             ok=(0, 1)))
    wall = time.perf_counter() - started
    exported = {}
    for line in run(["--db", db, "export"]).splitlines():
        if line.strip():
            row = json.loads(line)
            exported[row["id"]] = row
    return records, exported, {"wall": wall, "summary": summary}


def write_engine_cases(path: Path, docs: dict) -> None:
    with open(path, "w") as f:
        for d in docs.values():
            f.write(json.dumps(d) + "\n")


def run_engine(work: Path, docs: dict) -> dict:
    """The engine-level bench binary on the same documents and spans: {(doc, i): result}."""
    cases_path, results_path = work / "engine-docs.jsonl", work / "engine-results.jsonl"
    write_engine_cases(cases_path, docs)
    env = dict(os.environ, CITESTORE_SWEEP_CASES=str(cases_path),
               CITESTORE_SWEEP_RESULTS=str(results_path))
    done = subprocess.run(["cargo", "bench", "--bench", "reanchor_accuracy"], cwd=REPO, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"engine bench failed:\n{done.stderr[-4000:]}")
    timing = json.loads(done.stdout.strip().splitlines()[-1])
    results = {}
    with open(results_path) as f:
        for line in f:
            r = json.loads(line)
            results[(r["system"], r["doc"], r["i"])] = r
    return {"results": results, "timing": timing}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spans", type=int, default=2000)
    ap.add_argument("--seeds", default="5",
                    help="comma-separated sampling seeds; several pool their citations")
    ap.add_argument("--noise", action="store_true",
                    help="extraction noise on the new version (bench/sphinx_accuracy.py's "
                         "extraction_noise: curly quotes, running headers)")
    ap.add_argument("--engine", action="store_true",
                    help="also run the engine-level bench on the same spans, for comparison")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "citestore-sphinx"))
    args = ap.parse_args()
    root = Path(args.work)
    root.mkdir(parents=True, exist_ok=True)
    os.chdir(root)  # no citestore.toml of the caller's folder is picked up

    build = subprocess.run(["cargo", "build", "--release"], cwd=REPO, capture_output=True,
                           text=True)
    if build.returncode != 0:
        sys.exit(f"cargo build --release failed:\n{build.stderr[-4000:]}")

    versions = sa.download(root)
    old_files, new_files = versions[sa.VERSIONS[0]], versions[sa.VERSIONS[1]]
    if args.noise:
        new_files = {p: sa.extraction_noise(t) for p, t in new_files.items()}
    pairs = sorted(p for p in old_files if p in new_files and old_files[p] != new_files[p])
    same = sum(1 for p in old_files if p in new_files and old_files[p] == new_files[p])
    maps = {p: sa.char_map(old_files[p], new_files[p]) for p in pairs}
    seeds = [int(x) for x in args.seeds.split(",")]

    cases, docs, results = [], {}, {}
    verdicts, not_cited_why = Counter(), Counter()
    picked, walls, citations_swept, anchor_seconds = 0, 0.0, 0, 0.0
    problems = []
    for seed in seeds:
        spans_by_doc = sample(pairs, old_files, new_files, maps, seed, args.spans)
        records, exported, info = one_seed(seed, spans_by_doc, old_files, new_files, root)
        walls += info["wall"]
        citations_swept += info["summary"]["citations_reanchored"]
        anchor_seconds += info["summary"]["anchor_seconds"]
        if info["summary"]["errors"]:
            problems.append(f"seed {seed}: sweep errors {info['summary']['errors']}")
        for doc, recs in records.items():
            key = f"{doc}@{seed}"
            old, new, omap = old_files[doc], new_files[doc], maps[doc]
            docs[key] = {"doc": key, "old": old, "new": new, "spans": spans_by_doc[doc]}
            for i, rec in enumerate(recs):
                picked += 1
                verdicts[rec["verdict"]] += 1
                s, e = rec["start"], rec["end"]
                if rec["verdict"] != "exact" or rec["cited_span"] != [s, e]:
                    why = ("crosses a chunk boundary" if rec["crosses_chunk"]
                           else "repeated inside its chunk" if rec["repeated_in_chunk"]
                           else "other")
                    not_cited_why[(rec["verdict"], why)] += 1
                    continue
                line = exported.get(rec["citation"])
                if line is None:
                    problems.append(f"{key}#{i}: citation {rec['citation']} not exported")
                    continue
                if line["quote"] != old[s:e] or [line["start"], line["end"]] != [s, e]:
                    problems.append(f"{key}#{i}: exported citation is not the cited span")
                current = line["current"]
                if line["status"] != "lost" and (current is None or current["revision"] != 2):
                    problems.append(f"{key}#{i}: {line['status']} but current = {current}")
                if line["status"] == "lost":
                    start, end = s, e
                else:
                    start, end = current["start"], current["end"]
                results[("cli", key, i)] = {"status": line["status"], "start": start, "end": end,
                                            "method": (current or {}).get("method"),
                                            "score": (current or {}).get("score"),
                                            "reason": (current or {}).get("reason"),
                                            "id": line["id"]}
                cases.append({"doc": key, "i": i, "start": s, "end": e,
                              **sa.classify(old, new, omap, s, e)})

    systems = [("cli", "citestore CLI (ingest, cite, sweep, export)")]
    engine = None
    if args.engine:
        engine = run_engine(root, docs)
        results.update({k: v for k, v in engine["results"].items() if k[0] == "sweep"})
        systems.append(("sweep", "engine (DocumentSweep, same spans)"))
    scored = {s: sa.score(cases, results, docs, s) for s, _ in systems}

    cited = len(cases)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()
    print(f"citestore at {commit or 'unknown commit'} (release build)")
    print(f"Sphinx {sa.VERSIONS[0]} -> {sa.VERSIONS[1]}, doc/*.rst: {len(pairs)} changed files "
          f"({same} unchanged, skipped), seeds {args.seeds}"
          f"{', extraction noise on the new version' if args.noise else ''}: {picked} picked spans, "
          f"{cited} cited exactly and scored, {picked - cited} not cited\n")
    print("| line | target | " + " | ".join(name for _, name in systems) + " |")
    print("|---|---|" + "---:|" * len(systems))
    print("| false anchors (intact/moved, new text at the span is not the quote) | 0 | "
          + " | ".join(f"{scored[s]['false_anchors']} of {scored[s]['anchored']}"
                       for s, _ in systems) + " |")
    rows = [("verbatim survivors found at the diff's place (intact/moved)", "verbatim", ">= 99.9%"),
            ("light edits (>= 90% survive) -> degraded, IoU >= 0.5", "light", ">= 97%"),
            ("deleted (< 50% survive, text gone) -> lost", "deleted", ">= 95%"),
            ("moved verbatim (its only copy, once in the new text) -> intact/moved",
             "moved-verbatim", "100%"),
            ("a copy of repeated text whose cited copy was deleted, another standing -> "
             "intact/moved (which copy is meant: no target)", "repeated-verbatim", "-"),
            ("heavy edits (50-90% survive) -> placed, IoU >= 0.5", "heavy", "-")]
    for label, cat, target in rows:
        print(f"| {label} | {target} | "
              + " | ".join(sa.pct(scored[s]["counts"][cat]) for s, _ in systems) + " |")
    per_citation = [f"{walls / citations_swept:.2e} (wall, whole `sweep` process)"]
    if engine:
        per_citation.append(f"{engine['timing']['sweep_seconds_per_citation']:.2e} "
                            "(DocumentSweep only)")
    print("| seconds per citation | - | " + " | ".join(per_citation) + " |")
    print(f"\nsweep: {walls:.2f} s wall over {len(seeds)} run(s), {citations_swept} citations "
          f"re-anchored; re-anchoring alone {anchor_seconds:.2f} s "
          f"({anchor_seconds / citations_swept:.2e} s per citation)")
    print("\ncite verdicts of the picked spans: "
          + ", ".join(f"{v} {n}" for v, n in verdicts.most_common()))
    print("not cited (verdict, why): "
          + (", ".join(f"{v} / {w}: {n}" for (v, w), n in sorted(not_cited_why.items()))
             or "none"))
    if engine:
        differ = Counter()
        for c in cases:
            a, b = results[("cli", c["doc"], c["i"])], results[("sweep", c["doc"], c["i"])]
            if (a["status"], a["start"], a["end"]) != (b["status"], b["start"], b["end"]):
                differ[(c["category"], b["status"], a["status"])] += 1
        print("CLI vs engine, citations placed differently (category: engine -> CLI): "
              + (", ".join(f"{c}: {e} -> {k}: {n}" for (c, e, k), n in sorted(differ.items()))
                 or "none"))
    misses = []
    for c in cases:
        sub = sa.score([c], results, docs, "cli")
        bad = sub["false_anchors"] or (c["category"] in ("verbatim", "light", "deleted")
                                       and not sub["counts"][c["category"]][0])
        if bad or (engine and results[("cli", c["doc"], c["i"])]["status"]
                   != results[("sweep", c["doc"], c["i"])]["status"]):
            row = {**c, "cli": results[("cli", c["doc"], c["i"])]}
            if engine:
                row["engine"] = results[("sweep", c["doc"], c["i"])]
            misses.append(row)
    with open(root / "cli-misses.jsonl", "w") as f:
        for m in misses:
            f.write(json.dumps(m) + "\n")
    print(f"\nCLI misses and CLI/engine disagreements written to {root / 'cli-misses.jsonl'} "
          f"({len(misses)})")
    for p in problems[:20]:
        print("PROBLEM:", p)
    if problems:
        print(f"PROBLEMS: {len(problems)}")


if __name__ == "__main__":
    main()
