#!/usr/bin/env python3
"""Checks `citestore export --format w3c` against the store it came from, sharing no code with
citestore: every annotation's `exact` must be the revision's text at its TextPositionSelector
(Python str indices are code points), and prefix + exact + suffix must occur exactly once in the
revision (checked for every N-th annotation; `--every 1` checks all).

    citestore --db DB export --format w3c > w3c.jsonl
    python3 bench/w3c_check.py DB w3c.jsonl [--every 20]
"""
import argparse
import json
import sqlite3
import sys


def occurrences(text, needle):
    count, at = 0, text.find(needle)
    while at != -1:
        count += 1
        at = text.find(needle, at + 1)
    return count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("annotations")
    ap.add_argument("--every", type=int, default=20)
    args = ap.parse_args()
    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    texts = {}
    n = mismatched = not_unique = checked_unique = 0
    for line in open(args.annotations, encoding="utf-8"):
        a = json.loads(line)
        target = a["target"]
        quote, position = target["selector"]
        key = (target["source"], target["state"]["citestore:revision"])
        if key not in texts:
            texts[key] = db.execute(
                "SELECT r.text FROM revisions r JOIN documents d ON d.id = r.document_id "
                "WHERE d.doc_id = ? AND r.seq = ?",
                key,
            ).fetchone()[0]
        text = texts[key]
        n += 1
        if text[position["start"]:position["end"]] != quote["exact"]:
            mismatched += 1
        if n % args.every == 0:
            checked_unique += 1
            whole = quote["prefix"] + quote["exact"] + quote["suffix"]
            if occurrences(text, whole) != 1:
                not_unique += 1
    print(f"{n} annotations: exact differs from the text at the position in {mismatched}; "
          f"prefix+exact+suffix not unique in {not_unique} of {checked_unique} checked")
    sys.exit(1 if mismatched or not_unique else 0)


if __name__ == "__main__":
    main()
