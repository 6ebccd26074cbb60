"""The Python package's speed, side by side in one run (issue 11, "Must show"):

- `citestore.locate(chunk, quote)` per call against the seed's Python pipeline
  (`normalise_with_map` + rapidfuzz `partial_ratio_alignment`, bench/seed_locate.py), over all
  400 lines of fixtures/vectors/locate.jsonl: target >= 10x faster;
- the Python call's overhead: `citestore.locate` per call against the Rust library call it
  wraps (`citestore::text::locate_with(chunk, quote, &LocateOptions::default())`, criterion's
  `locate/default` of `cargo bench --bench text`, run by this script in the same run unless
  `--rust-us` gives a figure): target <= 1.5x.

One timed pass = all 400 calls; the figure is the best of --repeat passes divided by 400, in
microseconds per call. Run it with a release build of the package installed:

    python3 -m venv target/bench-venv
    target/bench-venv/bin/pip install maturin rapidfuzz==3.14.6
    (cd python && VIRTUAL_ENV=$PWD/../target/bench-venv ../target/bench-venv/bin/maturin develop --release)
    target/bench-venv/bin/python bench/bench_python_package.py
"""
import argparse
import json
import re
import subprocess
import sys
import timeit
from pathlib import Path

import rapidfuzz

import citestore

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from seed_locate import locate as seed_locate  # noqa: E402

UNITS = {"ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def read_cases() -> list:
    path = ROOT / "fixtures" / "vectors" / "locate.jsonl"
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def per_call_us(run, calls: int, repeat: int, number: int) -> float:
    best = min(timeit.repeat(run, repeat=repeat, number=number))
    return best / number / calls * 1e6


def rust_locate_default_us(calls: int) -> float:
    """criterion's median for `locate/default` (one iteration = all `calls` calls), per call."""
    out = subprocess.run(
        ["cargo", "bench", "--bench", "text", "--", "locate/default"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    match = re.search(r"locate/default\s+time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", out)
    if not match:
        sys.exit(f"could not read locate/default from cargo bench's output:\n{out}")
    return float(match.group(1)) * UNITS[match.group(2)] / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed passes; the best is kept")
    parser.add_argument("--number", type=int, default=5, help="runs over the file per pass")
    parser.add_argument("--rust-us", type=float,
                        help="Rust locate/default µs per call (default: run cargo bench now)")
    args = parser.parse_args()

    cases = [(c["chunk"], c["quote"]) for c in read_cases()]
    calls = len(cases)
    # Same answers first: the package on the seed's vectors gives the spans the CLI gives.
    found = sum(citestore.locate(chunk, quote) is not None for chunk, quote in cases)

    def run_seed():
        for chunk, quote in cases:
            seed_locate(chunk, quote)

    def run_package():
        for chunk, quote in cases:
            citestore.locate(chunk, quote)

    seed_us = per_call_us(run_seed, calls, args.repeat, args.number)
    package_us = per_call_us(run_package, calls, args.repeat, args.number)
    rust_us = args.rust_us if args.rust_us else rust_locate_default_us(calls)

    print(f"Python {sys.version.split()[0]}, rapidfuzz {rapidfuzz.__version__}, "
          f"citestore {citestore.__version__} ({citestore._native.__file__.rsplit('/', 1)[-1]}); "
          f"{calls} quotes ({found} located), best of {args.repeat} x {args.number} passes")
    print(f"{'locate per call':<52} {'µs':>8} {'vs citestore.locate':>20}")
    rows = [
        ("seed pipeline (Python + rapidfuzz)", seed_us),
        ("citestore.locate (Python package)", package_us),
        ("citestore::text::locate_with (Rust, criterion)", rust_us),
    ]
    for name, us in rows:
        print(f"{name:<52} {us:>8.2f} {us / package_us:>19.2f}x")
    print(f"speed-up over the seed pipeline: {seed_us / package_us:.1f}x (target >= 10x)")
    print(f"Python call / Rust call: {package_us / rust_us:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
