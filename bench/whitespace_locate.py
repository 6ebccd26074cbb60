#!/usr/bin/env python3
"""`citestore locate` on quotes that differ from the text only in whitespace (issue 24, item 5).

A model quoting a re-wrapped paragraph, an indented code block or a reST directive body gives
the same words with the line breaks and indentation collapsed. Such a quote is the text: it must
be located (`exact` or `folded`), never sent to `review` or refused.

Text: Sphinx 7.2.6's `doc/**/*.rst` (the sdist bench/releases_accuracy.py --project sphinx
downloads, from PyPI). Chunks: the text cut at blank lines into pieces of at most 1,500 chars.
Quotes: word-aligned spans of 30-300 chars (seeded) that hold a line break followed by
indentation or a line break inside a sentence, each given as its words joined by single spaces
(only spans where that differs from the text). All quotes go through one
`citestore locate --batch FILE` process per binary; the verdicts are counted.

Usage: python3 bench/whitespace_locate.py [--quotes 2000] [--seed 1] [--binary PATH ...]
       [--work DIR]
"""

import argparse
import importlib.util
import json
import os
import random
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chunks(text: str, limit: int = 1500) -> list:
    """The text cut at blank lines into pieces of at most `limit` chars (longer paragraphs
    whole)."""
    out, cur = [], ""
    for para in text.split("\n\n"):
        piece = para + "\n\n"
        if cur and len(cur) + len(piece) > limit:
            out.append(cur)
            cur = ""
        cur += piece
    if cur.strip():
        out.append(cur)
    return out


def quotes(chunk_texts: list, rng: random.Random, count: int) -> list:
    """(chunk, quote) pairs: spans holding a line break, quoted with whitespace collapsed."""
    out, tries = [], 0
    while len(out) < count and tries < count * 200:
        tries += 1
        chunk = rng.choice(chunk_texts)
        if len(chunk) < 60:
            continue
        length = rng.randint(30, min(300, len(chunk)))
        start = rng.randint(0, len(chunk) - length)
        # Word-aligned: from the start of a word to the end of one.
        while start > 0 and not chunk[start - 1].isspace():
            start -= 1
        end = start + length
        while end < len(chunk) and not chunk[end].isspace():
            end += 1
        span = chunk[start:end].strip()
        quote = " ".join(span.split())
        if "\n" in span and quote != span and len(quote) >= 30:
            out.append({"chunk": chunk, "quote": quote})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quotes", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--binary", action="append",
                    help="citestore binaries to compare (default: target/release/citestore)")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "citestore-releases"))
    args = ap.parse_args()
    binaries = args.binary or [str(REPO / "target" / "release" / "citestore")]
    ra = load("releases_accuracy")
    ra.PROJECT, ra.RELEASES, ra.DOCS_DIR, ra.SUFFIX = ra.PROJECTS["sphinx"]
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    texts = ra.download(work)["7.2.6"]
    chunk_texts = [c for name in sorted(texts) for c in chunks(texts[name])]
    cases = quotes(chunk_texts, random.Random(args.seed), args.quotes)
    batch = work / f"whitespace-quotes-{args.seed}.jsonl"
    with open(batch, "w") as f:
        for case in cases:
            f.write(json.dumps(case) + "\n")
    print(f"Sphinx 7.2.6 doc/**/*.rst: {len(chunk_texts)} chunks; {len(cases)} quotes that differ "
          f"from their span only in whitespace (seed {args.seed})\n")
    print("| binary | exact | folded | fuzzy | review | no span | review or no span |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for binary in binaries:
        done = subprocess.run([binary, "locate", "--batch", str(batch)], capture_output=True,
                              text=True, check=False)
        hows = Counter()
        for line in done.stdout.splitlines():
            got = json.loads(line)
            hows["none" if got is None else got.get("how", "?")] += 1
        bad = hows["review"] + hows["none"]
        print(f"| {binary} | {hows['exact']} | {hows['folded']} | {hows['fuzzy']} | "
              f"{hows['review']} | {hows['none']} | {100 * bad / max(1, len(cases)):.2f}% |")


if __name__ == "__main__":
    main()
