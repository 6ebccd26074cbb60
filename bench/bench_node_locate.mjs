// The Node package's `locate` per call against the Python package's `citestore.locate`, side by
// side in one run (the target: Node within 1.5x of Python), on fixtures/vectors/locate.jsonl
// (400 quotes).
//
// Timed as bench/bench_python_package.py times its sides (as `timeit` does): one pass = NUMBER
// runs over the 400 quotes, in µs per call; each round runs REPEAT passes of Node's `locate` (in
// this process) and REPEAT passes of Python's (`timeit.repeat` in one Python process kept
// running beside this one, asked for its passes each round), so a change in the machine's load
// falls on both. It prints the best pass (noise only adds) and the median, and checks first that
// both give the same spans on every quote.
//
// Both sides release builds: Python from a release wheel installed in a venv (not `maturin
// develop`; bench/RESULTS-python.md), Node from the addon built with the `wheel` profile (what
// `npm install node/` builds without CITESTORE_NODE_DEBUG), installed into a scratch project,
// not node/ itself:
//
//   (cd python && ../target/bench-venv/bin/maturin build --release -o ../target/wheels)
//   target/bench-venv/bin/pip install --force-reinstall --no-deps target/wheels/citestore-*.whl
//   cargo build --manifest-path node/Cargo.toml -p citestore-node --profile wheel
//   s=$(mktemp -d) && mkdir $s/pkg $s/project
//   cp -R node/index.js node/index.mjs node/index.d.ts node/index.d.mts node/native.d.ts \
//     node/lib node/scripts node/package.json node/README.md $s/pkg/
//   cp target/wheel/libcitestore_node.so $s/pkg/citestore.linux-x64-gnu.node   # the "prebuilt" addon
//   (cd $s/project && npm init -y >/dev/null && npm install --no-audit --no-fund $s/pkg)
//   node bench/bench_node_locate.mjs --project $s/project --python target/bench-venv/bin/python --rounds 10
//
// Options: --project DIR (where "citestore" is installed; default the current folder), --python
// PATH (default target/bench-venv/bin/python), --rounds (10), --repeat (3), --number (5).

import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import { readFileSync, realpathSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { dirname, join, resolve, basename } from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const VECTORS = join(ROOT, "fixtures", "vectors", "locate.jsonl");

function options() {
  const out = { project: process.cwd(), python: join(ROOT, "target", "bench-venv", "bin", "python"), rounds: 10, repeat: 3, number: 5 };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "");
    if (!(key in out) || argv[i + 1] === undefined) throw new Error(`unknown option ${argv[i]}`);
    out[key] = typeof out[key] === "number" ? Number(argv[i + 1]) : argv[i + 1];
  }
  return out;
}

// The Python side: reads the vectors, prints its spans (one JSON line), then for each line
// "REPEAT NUMBER" it reads, prints the passes' µs per call as a JSON list.
const PYTHON = `
import json, sys, timeit
import citestore
from citestore import locate
with open(sys.argv[1], encoding="utf-8") as f:
    cases = [(c["chunk"], c["quote"]) for c in (json.loads(l) for l in f if l.strip())]
def spans():
    out = []
    for chunk, quote in cases:
        r = locate(chunk, quote)
        out.append(None if r is None else [r["start"], r["end"], r["how"], round(r["score"], 6)])
    return out
print(json.dumps({"version": citestore.__version__, "python": sys.version.split()[0],
                  "module": citestore._native.__file__, "spans": spans()}), flush=True)
def run():
    for chunk, quote in cases:
        locate(chunk, quote)
for line in sys.stdin:
    repeat, number = map(int, line.split())
    passes = timeit.repeat(run, repeat=repeat, number=number)
    print(json.dumps([t / number / len(cases) * 1e6 for t in passes]), flush=True)
`;

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main() {
  const opt = options();
  const require = createRequire(join(resolve(opt.project), "package.json"));
  const citestore = require("citestore");
  const pkgDir = dirname(realpathSync(require.resolve("citestore/package.json")));
  const addon = readdirNode(pkgDir);
  const { locate } = citestore;

  const cases = readFileSync(VECTORS, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .map((c) => [c.chunk, c.quote]);
  const calls = cases.length;

  const child = spawn(opt.python, ["-c", PYTHON, VECTORS], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`${opt.python} ended early`);
    return JSON.parse(value);
  };
  const py = await nextLine();

  // Same spans on every quote (offsets: the vectors' chunks index the same either way only
  // where they hold no astral chars; compare the located text then).
  let found = 0;
  for (let i = 0; i < calls; i++) {
    const [chunk, quote] = cases[i];
    const r = locate(chunk, quote);
    const p = py.spans[i];
    if ((r === null) !== (p === null)) throw new Error(`quote ${i}: node ${JSON.stringify(r)}, python ${JSON.stringify(p)}`);
    if (r === null) continue;
    found++;
    const cps = [...chunk];
    const pyText = cps.slice(p[0], p[1]).join("");
    if (chunk.slice(r.start, r.end) !== pyText || r.how !== p[2] || Math.abs(r.score - p[3]) > 1e-6) {
      throw new Error(`quote ${i}: node ${JSON.stringify([r.start, r.end, r.how, r.score])}, python ${JSON.stringify(p)}`);
    }
  }

  const run = () => {
    for (let i = 0; i < calls; i++) locate(cases[i][0], cases[i][1]);
  };
  for (let i = 0; i < 3; i++) run(); // warm-up (Python's first pass also warms its own)
  const nodePasses = () => {
    const out = [];
    for (let r = 0; r < opt.repeat; r++) {
      const t0 = process.hrtime.bigint();
      for (let n = 0; n < opt.number; n++) run();
      out.push(Number(process.hrtime.bigint() - t0) / 1e3 / opt.number / calls);
    }
    return out;
  };

  const passes = { node: [], python: [] };
  const loads = [os.loadavg()[0]];
  for (let round = 0; round < opt.rounds; round++) {
    passes.node.push(...nodePasses());
    child.stdin.write(`${opt.repeat} ${opt.number}\n`);
    passes.python.push(...(await nextLine()));
    loads.push(os.loadavg()[0]);
  }
  child.stdin.end();

  const best = { node: Math.min(...passes.node), python: Math.min(...passes.python) };
  const med = { node: median(passes.node), python: median(passes.python) };
  console.log(
    `Node ${process.version}, citestore ${citestore.version} (${basename(addon)}, ${(statSync(addon).size / 1e6).toFixed(1)} MB, ${addon}); ` +
      `Python ${py.python}, citestore ${py.version} (${py.module}); ${calls} quotes (${found} located, same spans both sides); ` +
      `${opt.rounds} rounds x ${opt.repeat} passes x ${opt.number} runs per side; ${os.cpus().length} CPUs (${os.cpus()[0].model}); ` +
      `load average (1 min) ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
  );
  console.log(`${"locate, µs per call".padEnd(40)} ${"best".padStart(8)} ${"median".padStart(8)}`);
  console.log(`${"locate (Node package)".padEnd(40)} ${best.node.toFixed(2).padStart(8)} ${med.node.toFixed(2).padStart(8)}`);
  console.log(`${"citestore.locate (Python package)".padEnd(40)} ${best.python.toFixed(2).padStart(8)} ${med.python.toFixed(2).padStart(8)}`);
  console.log(
    `Node call / Python call: ${(best.node / best.python).toFixed(2)}x best, ${(med.node / med.python).toFixed(2)}x median (target <= 1.5x)`,
  );
}

function readdirNode(dir) {
  const { platformName } = createRequire(join(dir, "package.json"))("./lib/platform.js");
  return join(dir, `citestore.${platformName()}.node`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
