"""The Python package's speed, side by side in one run (issue 11, "Must show"; the issue
"Python in full", item 7):

- `citestore.locate(chunk, quote)` per call against the seed's Python pipeline
  (`normalise_with_map` + rapidfuzz `partial_ratio_alignment`, bench/seed_locate.py), over all
  400 lines of fixtures/vectors/locate.jsonl: target >= 15x faster;
- `citestore.locate_many(pairs)` over the same 400 pairs in one call, per pair;
- the Python call's overhead: `citestore.locate` per call against the Rust library call it
  wraps, `citestore::text::locate_with(chunk, quote, &LocateOptions::default())`, timed the same
  way by `cargo bench --bench locate_passes`: target <= 1.5x;
- the whole process: a fresh `python -c` that imports the package (or the seed's modules),
  reads the vectors and locates the 400 quotes RUNS times (`--process-runs`, several values),
  timed as a subprocess (wall clock, start-up and imports included), the seed's against the
  package's; each also with 0 runs, its start-up alone, so the per-call figure is given both
  with and net of it. Target >= 15x.

Every in-process side is timed as `timeit` does: one pass = NUMBER runs over the 400 quotes, the
figure is the best of REPEAT passes, in microseconds per call (the median is printed beside
it). Each process side is the best of REPEAT processes. The rounds interleave every side so a
change in the machine's load falls on all of them. Run it with a release wheel of the package
installed (not `maturin develop`: an editable install loads the module from python/citestore/,
which the test suite's debug build overwrites):

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
import time
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


# The whole-process sides: each a fresh interpreter that imports its locator, reads the vectors
# (argv[1]) and locates them argv[2] times (0: start-up alone); argv[3] is the bench folder.
READ = """
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    cases = [(c["chunk"], c["quote"]) for c in (json.loads(l) for l in f if l.strip())]
"""
RUNS = """
for _ in range(int(sys.argv[2])):
    for chunk, quote in cases:
        locate(chunk, quote)
"""
PROCESSES = {
    "seed": "import sys\nsys.path.insert(0, sys.argv[3])\nfrom seed_locate import locate\n"
    + READ
    + RUNS,
    "package": "from citestore import locate\n" + READ + RUNS,
}


def process_seconds(code: str, runs: int, repeat: int) -> list:
    """Wall-clock seconds of `repeat` fresh interpreters running `code` over `runs` runs."""
    path = ROOT / "fixtures" / "vectors" / "locate.jsonl"
    argv = [sys.executable, "-c", code, str(path), str(runs), str(ROOT / "bench")]
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, check=True)
        out.append(time.perf_counter() - started)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--repeat", type=int, default=3, help="passes per side per round")
    parser.add_argument("--number", type=int, default=5, help="runs over the file per pass")
    parser.add_argument(
        "--process-runs",
        type=int,
        nargs="+",
        default=[5, 25],
        help="runs over the file per whole process (0 is always measured too: start-up alone)",
    )
    args = parser.parse_args()

    cases = [(c["chunk"], c["quote"]) for c in read_cases()]
    calls = len(cases)
    # The package gives the CLI's answers on these vectors (tested in python/tests).
    found = sum(citestore.locate(chunk, quote) is not None for chunk, quote in cases)

    def run_seed():
        for chunk, quote in cases:
            seed_locate(chunk, quote)

    locate, locate_many = citestore.locate, citestore.locate_many
    # The batch gives what the calls one by one give (tested in python/tests/test_locate.py).
    assert locate_many(cases) == [locate(chunk, quote) for chunk, quote in cases]

    def run_package():
        for chunk, quote in cases:
            locate(chunk, quote)

    def run_batch():
        locate_many(cases)

    sides = ("seed", "package", "batch", "rust")
    passes = {name: [] for name in sides}
    runs_list = [0] + [runs for runs in args.process_runs if runs > 0]
    processes = {(name, runs): [] for name in PROCESSES for runs in runs_list}
    for _ in range(args.rounds):
        passes["seed"] += python_passes(run_seed, calls, args.repeat, args.number)
        passes["package"] += python_passes(run_package, calls, args.repeat, args.number)
        passes["batch"] += python_passes(run_batch, calls, args.repeat, args.number)
        passes["rust"] += rust_passes(args.repeat, args.number)
        for (name, runs), got in processes.items():
            got += process_seconds(PROCESSES[name], runs, args.repeat)

    best = {name: min(v) for name, v in passes.items()}
    median = {name: statistics.median(v) for name, v in passes.items()}
    print(
        f"Python {sys.version.split()[0]}, rapidfuzz {rapidfuzz.__version__}, citestore "
        f"{citestore.__version__} ({Path(citestore._native.__file__).name}); {calls} quotes "
        f"({found} located); {args.rounds} rounds x {args.repeat} passes x {args.number} runs per side"
    )
    print(f"{'locate, µs per call':<50} {'best':>8} {'median':>8}")
    rows = [
        ("seed pipeline (Python + rapidfuzz)", "seed"),
        ("citestore.locate (Python package)", "package"),
        ("citestore.locate_many (400 pairs a call)", "batch"),
        ("citestore::text::locate_with (Rust)", "rust"),
    ]
    for label, name in rows:
        print(f"{label:<50} {best[name]:>8.2f} {median[name]:>8.2f}")
    for label, name in [("locate", "package"), ("locate_many", "batch")]:
        print(
            f"{label} speed-up over the seed pipeline: {best['seed'] / best[name]:.1f}x best, "
            f"{median['seed'] / median[name]:.1f}x median (target >= 15x)"
        )
    print(
        f"Python call / Rust call: {best['package'] / best['rust']:.2f}x best, "
        f"{median['package'] / median['rust']:.2f}x median (target <= 1.5x)"
    )
    print(
        f"whole process (python -c: import, read the vectors, locate them RUNS times), "
        f"{args.rounds} rounds x {args.repeat} processes per side; best (median) wall ms"
    )
    print(f"{'runs':>5} {'calls':>6} {'seed':>17} {'citestore.locate':>17} {'speed-up':>15}")
    for runs in runs_list:
        seed_s, package_s = processes[("seed", runs)], processes[("package", runs)]
        ratio = f"{min(seed_s) / min(package_s):.1f}x" if runs else "(start-up)"
        print(
            f"{runs:>5} {runs * calls:>6} "
            f"{min(seed_s) * 1e3:>8.1f} ({statistics.median(seed_s) * 1e3:>6.1f}) "
            f"{min(package_s) * 1e3:>8.1f} ({statistics.median(package_s) * 1e3:>6.1f}) "
            f"{ratio:>15}"
        )
    # Per call in a whole process: the wall clock over the calls, and the same net of the
    # process's own start-up (interpreter, imports, reading the vectors).
    for runs in runs_list[1:]:
        whole = runs * calls
        seed_s, package_s = processes[("seed", runs)], processes[("package", runs)]
        seed_0, package_0 = processes[("seed", 0)], processes[("package", 0)]
        seed_net = (min(seed_s) - min(seed_0)) / whole * 1e6
        package_net = (min(package_s) - min(package_0)) / whole * 1e6
        print(
            f"{runs} runs, µs per call: seed {min(seed_s) / whole * 1e6:.2f}, citestore "
            f"{min(package_s) / whole * 1e6:.2f} with start-up ({min(seed_s) / min(package_s):.1f}x); "
            f"net of start-up seed {seed_net:.2f}, citestore {package_net:.2f} "
            f"({seed_net / package_net:.1f}x) (target >= 15x)"
        )


if __name__ == "__main__":
    main()
