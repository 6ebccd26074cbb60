"""Times the Python side of issue 2's "Must show" comparison on the reference vectors.

- locate: the seed's `locate(chunk, quote)` (bench/seed_locate.py) over all 400 lines of
  fixtures/vectors/locate.jsonl;
- partial_ratio: `rapidfuzz.fuzz.partial_ratio_alignment(needle, haystack)` over all 400 lines of
  fixtures/vectors/partial_ratio.jsonl (the strings are ready `str` objects, as in Rust the
  `char` vectors are collected outside the timing).

One timed run = all 400 calls; the figure is the best of --repeat runs divided by 400, in
microseconds per call. Pass the Rust per-call figures (from `cargo bench --bench text`, time/400)
to print them side by side with the ratio Python/Rust:

    python3 bench/bench_python.py --rust-locate 23.5 --rust-partial-ratio 15.4
"""
import argparse
import json
import sys
import timeit
from pathlib import Path

import rapidfuzz
from rapidfuzz import fuzz

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from seed_locate import locate  # noqa: E402


def read_vectors(name: str) -> list[dict]:
    path = ROOT / "fixtures" / "vectors" / name
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def per_call_us(run, calls: int, repeat: int, number: int) -> float:
    best = min(timeit.repeat(run, repeat=repeat, number=number))
    return best / number / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed runs; the best is kept")
    parser.add_argument("--number", type=int, default=5, help="passes over the file per run")
    parser.add_argument("--rust-locate", type=float, help="Rust locate/seed, µs per call")
    parser.add_argument("--rust-partial-ratio", type=float, help="Rust alignment, µs per call")
    args = parser.parse_args()

    locate_cases = [(c["chunk"], c["quote"]) for c in read_vectors("locate.jsonl")]
    pr_cases = [(c["needle"], c["haystack"]) for c in read_vectors("partial_ratio.jsonl")]

    def run_locate():
        for chunk, quote in locate_cases:
            locate(chunk, quote)

    def run_partial_ratio():
        for needle, haystack in pr_cases:
            fuzz.partial_ratio_alignment(needle, haystack)

    rows = [
        ("locate (seed pipeline)", len(locate_cases),
         per_call_us(run_locate, len(locate_cases), args.repeat, args.number),
         args.rust_locate),
        ("partial_ratio_alignment", len(pr_cases),
         per_call_us(run_partial_ratio, len(pr_cases), args.repeat, args.number),
         args.rust_partial_ratio),
    ]

    print(f"Python {sys.version.split()[0]}, rapidfuzz {rapidfuzz.__version__}; "
          f"best of {args.repeat} x {args.number} passes")
    print(f"{'benchmark':<26} {'calls':>5} {'Python µs/call':>15} {'Rust µs/call':>13} "
          f"{'Python/Rust':>12}")
    for name, calls, py, rust in rows:
        rust_s = f"{rust:.2f}" if rust else "-"
        ratio_s = f"{py / rust:.2f}x" if rust else "-"
        print(f"{name:<26} {calls:>5} {py:>15.2f} {rust_s:>13} {ratio_s:>12}")


if __name__ == "__main__":
    main()
