#!/usr/bin/env python3
"""Why the releases oracle counts a char as surviving only in a run of 3 or more
(bench/sphinx_accuracy.py's STRAY_BLOCK): what difflib's char matcher pairs inside a replaced
hunk of lines, by the size of its matching blocks, between each old hunk and (a) its own new
version, (b) the new side of an unrelated hunk of the same project, cut or repeated to the same
length (a control: anything it shares is chance).

Usage: python3 bench/stray_blocks.py [--project sphinx|django] [--work DIR]
Reads the sdists bench/releases_accuracy.py downloads (into the same --work folder; it fetches
them when missing). Prints a markdown table.
"""

import argparse
import difflib
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import releases_accuracy as ra  # noqa: E402  (download, PROJECTS)


def replaced_hunks(texts: dict, releases: tuple) -> list:
    """(old lines, new lines) of every `replace` opcode of the line diff, release to release."""
    hunks = []
    for a, b in zip(releases, releases[1:]):
        for path in sorted(texts[a]):
            old, new = texts[a][path], texts[b].get(path)
            if new is None or new == old:
                continue
            ol, nl = old.splitlines(True), new.splitlines(True)
            sm = difflib.SequenceMatcher(None, ol, nl, autojunk=False)
            for tag, i1, i2, j1, j2 in sm.get_opcodes():
                if tag == "replace":
                    hunks.append(("".join(ol[i1:i2]), "".join(nl[j1:j2])))
    return hunks


def by_block_size(a: str, b: str) -> Counter:
    """Chars difflib matches between `a` and `b`, by the size of their block (10 = 10+)."""
    out = Counter()
    for blk in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        if blk.size:
            out[min(blk.size, 10)] += blk.size
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--project", choices=("sphinx", "django"), default="sphinx")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "citestore-releases"))
    args = ap.parse_args()
    ra.PROJECT, ra.RELEASES, ra.DOCS_DIR, ra.SUFFIX = ra.PROJECTS[args.project]
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    texts = ra.download(work)
    hunks = [h for h in replaced_hunks(texts, ra.RELEASES) if len(h[0]) * len(h[1]) <= 4_000_000]
    own, control = Counter(), Counter()
    news = [n for _, n in hunks]
    for k, (old, new) in enumerate(hunks):
        own += by_block_size(old, new)
        other = news[(k + len(hunks) // 2) % len(hunks)]
        if other and new:
            other = (other * (len(new) // len(other) + 1))[:len(new)]
            control += by_block_size(old, other)
    total_own, total_control = sum(own.values()), sum(control.values())
    print(f"{ra.PROJECT} {' -> '.join(ra.RELEASES)}: {len(hunks)} replaced hunks of lines; chars "
          "difflib matches inside them, by block size\n")
    print("| block size | with its own new version | with an unrelated hunk (chance) |")
    print("|---:|---:|---:|")
    for size in range(1, 11):
        label = f"{size}+" if size == 10 else str(size)
        print(f"| {label} | {own[size]} ({100 * own[size] / total_own:.1f}%) | "
              f"{control[size]} ({100 * control[size] / total_control:.1f}%) |")


if __name__ == "__main__":
    main()
