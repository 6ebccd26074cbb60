#!/usr/bin/env python3
"""A second project's documentation across three releases, end to end through the `citestore`
binary (issue 24, item 6).

Django's reStructuredText documentation (`docs/**/*.txt` of the Django 4.2, 5.0 and 5.1 source
distributions, fetched from PyPI with `pip download --no-deps --no-binary :all:`), one store
swept release after release, the way a nightly job would meet them:

1. 4.2 -> 5.0: the 4.2 text of every `docs/` file 4.2 and 5.0 both have and that changed, in
   W/docs/; `ingest --chunker paragraph:1500`; per document `context --json`, an answer with one
   claim per picked span and `cite --json` (bench/sphinx_cli_accuracy.py's `cite_document`; only
   spans cited `exact` at the picked span are scored); a re-chunk-only sweep on the unchanged
   text (`sweep --chunker paragraph:700`: every citation must stay `intact` where it was cited);
   W/docs/ overwritten with 5.0; `sweep --chunker chars:1000:100 --json`; `export`.
2. 5.0 -> 5.1: the same in the same store: spans picked in the 5.0 text of the files 5.0 and 5.1
   both have and that changed (files not yet in the store are ingested with
   `--chunker chars:1000:100`), cited against 5.0's chunks, W/docs/ overwritten with 5.1;
   `sweep --chunker paragraph:1500`; `export`.
3. The 4.2 citations of step 1, swept twice, are also scored against 4.2 -> 5.1 directly.
4. A last re-chunk-only sweep (`--chunker chars:1000:100`, same 5.1 text): no citation's
   status or span may change.

Span sampling, oracle and scoring are bench/sphinx_accuracy.py's (imported): word-aligned spans
of 30-300 chars, half of them over edited text; Python difflib (lines, then chars inside changed
hunks; a char survives in a run of 3 or more matched in order, bench/stray_blocks.py says why);
classes verbatim, moved verbatim, light (>= 90% of chars survive), heavy (50-90%), deleted
(< 50% and the text gone). The tables add the heavy line as the earlier oracle counted it (every
matched char a survival). The Hypothesis-style peer (bench/peer/anchor.mjs, `npm ci
--prefix bench/peer`) runs on exactly the same documents and spans in the same run.

With `--project sphinx`: the same for Sphinx 6.2.1, 7.2.6 and 7.4.7 (`doc/**/*.rst`): the Sphinx
harness of bench/sphinx_accuracy.py (6.2.1 -> 7.2.6) through the binary, beside the peer.

Usage: python3 bench/releases_accuracy.py [--project django|sphinx] [--spans 2000] [--seed 5]
       [--binary PATH] [--work DIR]
--binary defaults to REPO/target/release/citestore (`cargo build --release` makes it; the script
does not build). Needs: pip (PyPI), node. Downloads: Django==4.2, ==5.0, ==5.1 sdists (~10 MB
each; pip prepares their metadata, ~40 s each the first time). Prints markdown tables; writes
W/misses.jsonl (citestore misses and the peer's answer).
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# --project: (the PyPI name, three releases, the docs folder in the sdist, the files' suffix).
PROJECTS = {
    "django": ("Django", ("4.2", "5.0", "5.1"), "docs/", ".txt"),
    "sphinx": ("Sphinx", ("6.2.1", "7.2.6", "7.4.7"), "doc/", ".rst"),
}
PROJECT, RELEASES, DOCS_DIR, SUFFIX = PROJECTS["django"]


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ha = load("html_accuracy")  # sweep, export, rechunk_check, cited_results, run_peer, commit_of
scli = ha.scli              # bench/sphinx_cli_accuracy.py: sample, run, write_docs, cite_document
sa = scli.sa                # bench/sphinx_accuracy.py: char_map, classify, score, pct


def download(work: Path) -> dict:
    """{release: {path: text}} of the DOCS_DIR/**/*SUFFIX files of each PROJECT sdist."""
    out = {}
    for version in RELEASES:
        sdist = f"{PROJECT.lower()}-{version}.tar.gz"
        found = [p for p in work.glob("*.tar.gz") if p.name.lower() == sdist]
        if not found:
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary",
                            ":all:", f"{PROJECT.lower()}=={version}", "-d", str(work), "-q"],
                           check=True)
            found = [p for p in work.glob("*.tar.gz") if p.name.lower() == sdist]
        files = {}
        with tarfile.open(found[0]) as tar:
            for member in tar.getmembers():
                parts = member.name.split("/", 1)
                if (member.isfile() and len(parts) == 2 and parts[1].startswith(DOCS_DIR)
                        and parts[1].endswith(SUFFIX)):
                    files[parts[1]] = tar.extractfile(member).read().decode("utf-8")
        out[version] = files
    return out


ROWS = [("verbatim survivors found at the diff's place (intact/moved)", "verbatim", ">= 99.9%"),
        ("light edits (>= 90% survive) -> degraded, IoU >= 0.5", "light", ">= 98%, >= peer"),
        ("heavy edits (50-90% survive) -> placed, IoU >= 0.5", "heavy", ">= 80%, >= peer"),
        ("deleted (< 50% survive, text gone) -> lost", "deleted", ">= 95%"),
        ("moved verbatim (its only copy, once in the new text) -> intact/moved",
         "moved-verbatim", "100%"),
        ("a copy of repeated text whose cited copy was deleted, another standing -> "
         "intact/moved (which copy is meant: no target)", "repeated-verbatim", "-")]


def table(cases, results, docs, systems, earlier=None) -> list:
    """The step's table; `earlier`: the same spans classified with every char difflib matched
    counted (sa.classify's stray_block=1, the oracle before 2026-12-05), for one more row."""
    scored = {s: sa.score(cases, results, docs, s) for s, _ in systems}
    out = ["| line | target | " + " | ".join(n for _, n in systems) + " |",
           "|---|---|" + "---:|" * len(systems),
           "| false anchors (intact/moved, new text at the span is not the quote) | 0 | "
           + " | ".join(f"{scored[s]['false_anchors']} of {scored[s]['anchored']}"
                        for s, _ in systems) + " |"]
    for label, cat, target in ROWS:
        out.append(f"| {label} | {target} | "
                   + " | ".join(sa.pct(scored[s]["counts"][cat]) for s, _ in systems) + " |")
    both = [c for c in cases if c["category"] == "deleted"
            and c.get("letters_oracle", {}).get("survival", 1.0) < 0.5]
    lost = {s: sum(results[(s, c["doc"], c["i"])]["status"] == "lost" for c in both)
            for s, _ in systems}
    out.append("| deleted by both oracles (difflib < 50%, letters < 50%) -> lost | >= 95% | "
               + " | ".join(sa.pct((lost[s], len(both))) for s, _ in systems) + " |")
    if earlier is not None:
        before = {s: sa.score(earlier, results, docs, s) for s, _ in systems}
        out.append("| heavy edits as the earlier oracle counted them (1-2-char matches as "
                   "survivals) | - | "
                   + " | ".join(sa.pct(before[s]["counts"]["heavy"]) for s, _ in systems) + " |")
    return out


def letters_opinion(old: str, new: str, case: dict, memo: dict) -> dict:
    """A second opinion on a span difflib calls deleted: bench/pdf_accuracy.py's letters oracle
    (unique grams on an increasing chain, then a search where the span's grams point, so a
    paragraph that moved and was reflowed is found): its survival share and category."""
    pa = ha.pa
    key = (id(old), id(new))
    if key not in memo:
        a, a_raw = pa.project(old)
        b, b_raw = pa.project(new)
        memo[key] = (a, b, a_raw, b_raw, pa.align(a, b), pa.gram_pairs(a, b))
    a, b, a_raw, b_raw, amap, grams = memo[key]
    got = pa.classify(old, new, a, b, a_raw, b_raw, amap, grams, case["start"], case["end"])
    return {"survival": round(got["survival"], 3), "category": got["category"],
            "expected": got["expected"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spans", type=int, default=2000, help="spans picked per release step")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--project", choices=sorted(PROJECTS), default="django")
    ap.add_argument("--binary", default=str(REPO / "target" / "release" / "citestore"))
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "citestore-releases"))
    args = ap.parse_args()
    global PROJECT, RELEASES, DOCS_DIR, SUFFIX
    PROJECT, RELEASES, DOCS_DIR, SUFFIX = PROJECTS[args.project]
    scli.BINARY = Path(args.binary).resolve()
    if not scli.BINARY.exists():
        sys.exit(f"{scli.BINARY} does not exist: `cargo build --release` makes it")
    root = Path(args.work).resolve()
    root.mkdir(parents=True, exist_ok=True)
    os.chdir(root)  # no citestore.toml of the caller's folder is picked up
    t0 = time.time()
    texts = download(root)
    v0, v1, v2 = (texts[r] for r in RELEASES)

    def changed(a, b):
        return sorted(p for p in a if p in b and a[p] != b[p])

    pairs1, pairs2 = changed(v0, v1), changed(v1, v2)
    maps1 = {p: sa.char_map(v0[p], v1[p]) for p in pairs1}
    maps2 = {p: sa.char_map(v1[p], v2[p]) for p in pairs2}
    spans1 = scli.sample(pairs1, v0, v1, maps1, args.seed, args.spans)
    spans2 = scli.sample(pairs2, v1, v2, maps2, args.seed + 1000, args.spans)
    final = {p: v2.get(p, v1.get(p)) for p in set(spans1) | set(spans2)}
    oracle_seconds = time.time() - t0

    work = root / f"run-{args.seed}"
    if work.exists():
        subprocess.run(["rm", "-rf", str(work)], check=True)
    docs_dir = work / "docs"
    docs_dir.mkdir(parents=True)
    db = str(work / "cs.db")
    problems, sweeps = [], []

    # Step 1: 4.2 -> 5.0.
    names1 = sorted(spans1)
    scli.write_docs(docs_dir, v0, names1)
    scli.run(["--db", db, "ingest", str(docs_dir), "--chunker", "paragraph:1500", "--json"])
    rec1 = {d: scli.cite_document(db, work, d, v0[d], spans1[d]) for d in names1}
    ids1 = [r["citation"] for recs in rec1.values() for r in recs
            if r["verdict"] == "exact" and r["cited_span"] == [r["start"], r["end"]]]
    pre = ha.rechunk_check(db, "paragraph:700", ha.export(db), ids1, must_be_intact=True)
    scli.write_docs(docs_dir, v1, names1)
    summary1, wall1 = ha.sweep(db, "chars:1000:100")
    sweeps.append((summary1, wall1))
    exp1 = ha.export(db)

    # Step 2: 5.0 -> 5.1, same store.
    names2 = sorted(spans2)
    scli.write_docs(docs_dir, v1, names2)
    scli.run(["--db", db, "ingest", str(docs_dir), "--chunker", "chars:1000:100", "--json"])
    rec2 = {d: scli.cite_document(db, work, d, v1[d], spans2[d]) for d in names2}
    ids2 = [r["citation"] for recs in rec2.values() for r in recs
            if r["verdict"] == "exact" and r["cited_span"] == [r["start"], r["end"]]]
    scli.write_docs(docs_dir, final, sorted(final))
    summary2, wall2 = ha.sweep(db, "paragraph:1500")
    sweeps.append((summary2, wall2))
    exp2 = ha.export(db)
    post = ha.rechunk_check(db, "chars:1000:100", exp2, ids1 + ids2, must_be_intact=False)
    for s, _ in sweeps:
        if s["errors"]:
            problems.append(f"sweep errors: {s['errors']}")

    # Scoring: three sets of cases, each with its own documents for the oracle and the peer.
    r0, r1, r2 = RELEASES
    steps = [(f"{r0} -> {r1}", rec1, exp1, v0, v1, maps1, lambda d: 2),
             (f"{r1} -> {r2}", rec2, exp2, v1, v2, maps2,
              lambda d: 3 if d in spans1 else 2),
             (f"{r0} -> {r1} -> {r2} (the {r0} citations, swept twice)", rec1, exp2, v0, final, None,
              None)]
    systems = [("cli", "citestore (ingest, cite, sweep, export)"),
               ("peer", "Hypothesis-style peer")]
    out_lines, misses, letters = [], [], {}
    for k, (label, recs, exported, old_files, new_files, maps, rev_of) in enumerate(steps):
        def key_of(d, k=k):
            return f"{d}@{k}"
        results, cited, verdicts, not_cited = ha.cited_results(recs, exported, old_files, key_of,
                                                               problems, rev_of)
        docs, cases, earlier = {}, [], []
        for d in recs:
            if maps is None:
                if old_files[d] == new_files[d]:
                    continue
            docs[key_of(d)] = {"doc": key_of(d), "old": old_files[d], "new": new_files[d],
                               "spans": [[r["start"], r["end"]] for r in recs[d]]}
        cmap = {}
        for key, i in cited:
            d = key.rsplit("@", 1)[0]
            if key not in docs:
                continue
            if d not in cmap:
                cmap[d] = maps[d] if maps is not None else sa.char_map(old_files[d], new_files[d])
            s, e = docs[key]["spans"][i]
            cases.append({"doc": key, "i": i, "start": s, "end": e,
                          **sa.classify(old_files[d], new_files[d], cmap[d], s, e)})
            earlier.append({"doc": key, "i": i, "start": s, "end": e,
                            **sa.classify(old_files[d], new_files[d], cmap[d], s, e,
                                          stray_block=1)})
        peer, timing = ha.run_peer(root, docs, f"step{k}")
        results.update(peer)
        # A second opinion on every span difflib calls deleted (a paragraph that moved and was
        # re-wrapped is a deletion to a line diff): the letters oracle's share of its letters
        # that survive; "deleted by both" is what neither oracle finds half of.
        for c in cases:
            if c["category"] == "deleted":
                d = c["doc"].rsplit("@", 1)[0]
                c["letters_oracle"] = letters_opinion(old_files[d], new_files[d], c, letters)
        picked = sum(len(r) for r in recs.values())
        out_lines.append(f"### {PROJECT} {label}\n")
        out_lines.append(f"{len(recs)} changed files, {picked} picked spans, {len(cited)} cited "
                         f"exactly, {len(cases)} scored (of documents that changed)\n")
        out_lines += table(cases, results, docs, systems, earlier)
        if k < 2:
            summary, wall = sweeps[k]
            out_lines.append(f"| seconds per citation | - | "
                             f"{wall / max(1, summary['citations_reanchored']):.2e} (wall, "
                             f"whole `sweep` process) | {timing['seconds_per_citation']:.2e} "
                             f"(node, matching only) |")
            out_lines.append(f"\nsweep: {wall:.2f} s wall, {summary['citations_reanchored']} "
                             f"citations re-anchored, status {summary['status']}, method "
                             f"{summary['method']}")
            out_lines.append("cite verdicts: " + ", ".join(f"{v} {n}" for v, n in
                                                           verdicts.most_common())
                             + "; not cited (verdict / why): "
                             + (", ".join(f"{v} / {w}: {n}" for (v, w), n in
                                          sorted(not_cited.items())) or "none"))
        out_lines.append("")
        for c in cases:
            sub = sa.score([c], results, docs, "cli")
            if sub["false_anchors"] or not sub["counts"][c["category"]][0]:
                d = c["doc"].rsplit("@", 1)[0]
                cli = ha.lost_reason(db, results[("cli", c["doc"], c["i"])])
                misses.append({"step": label, **c, "cli": cli,
                               "peer": results[("peer", c["doc"], c["i"])],
                               "old_text": old_files[d][c["start"]:c["end"]],
                               "new_text": (new_files[d][c["expected"][0]:c["expected"][1]]
                                            if c.get("expected") else None)})

    print(f"citestore at {ha.commit_of()} ({scli.BINARY}); {PROJECT} {', '.join(RELEASES)} "
          f"{DOCS_DIR}**/*{SUFFIX}; seed {args.seed}, {args.spans} spans per step; "
          f"{time.time() - t0:.0f} s in all (oracle {oracle_seconds:.0f} s)\n")
    print("\n".join(out_lines))
    for label, chk in ((f"on the {r0} text (`paragraph:700`, before any text change): intact at "
                        "the cited span", pre),
                       (f"on the {r2} text (`chars:1000:100`, after both sweeps): status and span "
                        "unchanged", post)):
        print(f"re-chunk-only sweep {label}: {sa.pct((chk['kept'], chk['total']))}; "
              f"{chk['rechunked']} documents re-chunked, {chk['reanchored']} citations "
              f"re-anchored, {chk['anchors_written']} anchors written"
              + (f"; e.g. {chk['examples']}" if chk["examples"] else ""))
    path = root / f"misses-{args.seed}.jsonl"
    with open(path, "w") as f:
        for m in misses:
            f.write(json.dumps(m, ensure_ascii=False) + "\n")
    kinds = Counter((m["step"], m["category"], m["cli"]["status"],
                     m["letters_oracle"]["category"] if "letters_oracle" in m else "")
                    for m in misses)
    print(f"\ncitestore misses ({len(misses)}, written to {path}); for a span difflib calls "
          f"deleted, the letters oracle's class (bench/pdf_accuracy.py) as a second opinion:")
    print("| step | class | citestore said | letters oracle's class | count |")
    print("|---|---|---|---|---:|")
    for (step, cat, status, second), n in sorted(kinds.items()):
        print(f"| {step} | {cat} | {status} | {second or '-'} | {n} |")
    for p in problems[:20]:
        print("PROBLEM:", p)
    if problems:
        print(f"PROBLEMS: {len(problems)}")


if __name__ == "__main__":
    main()
