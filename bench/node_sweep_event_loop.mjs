// A 200,000-citation sweep awaited from Node while a setInterval keeps firing: the sweep runs
// off the event loop (an napi AsyncTask on the libuv pool), so the timer is never starved.
//
//   CITESTORE_BENCH_DOCS=2000 cargo bench --bench sweep_scale -- setup /tmp/n200k   # 200,000 citations, 10% revised on disk
//   node bench/node_sweep_event_loop.mjs --project PROJECT --db /tmp/n200k/bench.db
//
// PROJECT is a folder where the package is installed (`npm install node/`), as in
// bench/RESULTS-node.md. Prints the sweep's summary, its wall time, how many times a 10 ms timer
// fired meanwhile, and the longest gap between two firings. Not a test: nothing here asserts.
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { project: { type: "string" }, db: { type: "string" }, chunker: { type: "string", default: "paragraph:1200" } },
});
if (!values.project || !values.db) {
  console.error("usage: node bench/node_sweep_event_loop.mjs --project DIR --db FILE");
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(values.project), "package.json"));
const { Store } = require("citestore");

const store = await Store.open(values.db);
let ticks = 0;
let last = performance.now();
let longest = 0;
const timer = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last);
  last = now;
  ticks += 1;
}, 10);
const started = performance.now();
const summary = await store.sweep({ chunker: values.chunker });
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
store.close();
const citations = summary.citationsReanchored + summary.citationsUnchanged;
console.log(JSON.stringify({ status: summary.status, citations, reanchored: summary.citationsReanchored, documents: summary.documents }));
console.log(`sweep ${seconds.toFixed(2)} s; a 10 ms timer fired ${ticks} times meanwhile (${(ticks / seconds).toFixed(0)}/s); longest gap ${longest.toFixed(1)} ms`);
