#!/usr/bin/env python3
"""A test judge for `citestore verify --judge command:...`: answers from a fixed table.

Reads one request {"claim", "premise", "spans"} on stdin and prints the table's reply for the
claim. Every request is appended to the file named by JUDGE_LOG (one JSON line), so a test can
prove which claims reached the judge. Modes for failure tests (first argument):
  table TABLE.json   answer from the table (default behaviour)
  hang               never answer
  garbage            print something that is not a reply
  fail               exit with status 3
"""
import json
import os
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "table"
request = json.loads(sys.stdin.readline())
log = os.environ.get("JUDGE_LOG")
if log:
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps(request) + "\n")
if mode == "hang":
    time.sleep(3600)
elif mode == "garbage":
    print("I think it is probably fine?")
elif mode == "fail":
    print("judge crashed", file=sys.stderr)
    sys.exit(3)
else:
    with open(sys.argv[2], encoding="utf-8") as f:
        table = json.load(f)
    print(json.dumps(table[request["claim"]]))
