"""The Python package's speed, side by side in one run (issue 11, "Must show"):

- `citestore.locate(chunk, quote)` per call against the seed's Python pipeline
  (`normalise_with_map` + rapidfuzz `partial_ratio_alignment`, bench/seed_locate.py), over all
  400 lines of fixtures/vectors/locate.jsonl: target >= 10x faster;
- the Python call's overhead: `citestore.locate` per call against the Rust library call it
  wraps, `citestore::text::locate_with(chunk, quote, &LocateOptions::default())`, timed the same
  way by `cargo bench --bench locate_passes`: target <= 1.5x.

Every side is timed as `timeit` does: one pass = NUMBER runs over the 400 quotes, the figure is
the best of REPEAT passes, in microseconds per call (the median is printed beside it). The
rounds interleave the three sides (seed, package, Rust) so a change in the machine's load
falls on all of them. Run it with a release wheel of the package installed (not `maturin
develop`: an editable install loads the module from python/citestore/, which the test suite's
debug build overwrites):

    python3 -m venv target/bench-venv
    target/bench-venv/bin/pip install maturin rapidfuzz==3.14.6
    (cd python && ../target/bench-venv/bin/maturin build --release -o ../target/wheels)
    target/bench-venv/bin/pip install --force-reinstall --no-deps target/wheels/citestore-*.whl
    target/bench-venv/bin/python bench/bench_python_package.py
"""

import argparse
import json
import statistics
import subprocess
import sys
import timeit
from pathlib import Path

import rapidfuzz

import citestore

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from seed_locate import locate as seed_locate  # noqa: E402


def read_cases() -> list:
    path = ROOT / "fixtures" / "vectors" / "locate.jsonl"
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def python_passes(run, calls: int, repeat: int, number: int) -> list:
    return [t / number / calls * 1e6 for t in timeit.repeat(run, repeat=repeat, number=number)]


def rust_passes(repeat: int, number: int) -> list:
    """`repeat` passes of the Rust call, µs per call each (the bench prints best and median of
    its passes; one pass per process keeps it interleaved with the Python sides)."""
    out = []
    for _ in range(repeat):
        line = subprocess.run(
            ["cargo", "bench", "-q", "--bench", "locate_passes", "--", "1", str(number)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip().splitlines()[-1]
        out.append(json.loads(line)["best_us"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--repeat", type=int, default=3, help="passes per side per round")
    parser.add_argument("--number", type=int, default=5, help="runs over the file per pass")
    args = parser.parse_args()

    cases = [(c["chunk"], c["quote"]) for c in read_cases()]
    calls = len(cases)
    # The package gives the CLI's answers on these vectors (tested in python/tests).
    found = sum(citestore.locate(chunk, quote) is not None for chunk, quote in cases)

    def run_seed():
        for chunk, quote in cases:
            seed_locate(chunk, quote)

    locate = citestore.locate

    def run_package():
        for chunk, quote in cases:
            locate(chunk, quote)

    seed, package, rust = [], [], []
    for _ in range(args.rounds):
        seed += python_passes(run_seed, calls, args.repeat, args.number)
        package += python_passes(run_package, calls, args.repeat, args.number)
        rust += rust_passes(args.repeat, args.number)

    best = {name: min(v) for name, v in (("seed", seed), ("package", package), ("rust", rust))}
    median = {
        name: statistics.median(v) for name, v in (("seed", seed), ("package", package), ("rust", rust))
    }
    print(
        f"Python {sys.version.split()[0]}, rapidfuzz {rapidfuzz.__version__}, citestore "
        f"{citestore.__version__} ({Path(citestore._native.__file__).name}); {calls} quotes "
        f"({found} located); {args.rounds} rounds x {args.repeat} passes x {args.number} runs per side"
    )
    print(f"{'locate, µs per call':<50} {'best':>8} {'median':>8}")
    rows = [
        ("seed pipeline (Python + rapidfuzz)", "seed"),
        ("citestore.locate (Python package)", "package"),
        ("citestore::text::locate_with (Rust)", "rust"),
    ]
    for label, name in rows:
        print(f"{label:<50} {best[name]:>8.2f} {median[name]:>8.2f}")
    print(
        f"speed-up over the seed pipeline: {best['seed'] / best['package']:.1f}x best, "
        f"{median['seed'] / median['package']:.1f}x median (target >= 10x)"
    )
    print(
        f"Python call / Rust call: {best['package'] / best['rust']:.2f}x best, "
        f"{median['package'] / median['rust']:.2f}x median (target <= 1.5x)"
    )


if __name__ == "__main__":
    main()
