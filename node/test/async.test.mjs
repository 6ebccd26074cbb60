// Store calls run off the event loop (the addon's AsyncTasks, on the libuv thread pool): a
// timer keeps ticking while a sweep re-anchors, and a reader answers while it writes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Store } from "citestore";
import { folder, anthropicMessage } from "./helpers.mjs";

const DOCS = 60;

function paragraphs(i, version) {
  const out = [];
  if (version === 2) out.push(`Revision two of document ${i} starts with a new line.`);
  for (let p = 0; p < 40; p++) {
    out.push(`Document ${i}, paragraph ${p}: the rate for tier ${p} is $${p}.${i} per call, billed monthly.`);
  }
  return out.join("\n\n");
}

test("a timer ticks during a sweep; health answers meanwhile", async () => {
  const dir = await folder("async");
  const store = await Store.open(join(dir, "cs.db"));
  for (let i = 0; i < DOCS; i++) {
    await store.ingestText(`doc-${i}.md`, paragraphs(i, 1), { chunker: "paragraph:400" });
  }
  const ctx = await store.context({ docs: Array.from({ length: DOCS }, (_, i) => `doc-${i}.md`) });
  const claims = [];
  for (const chunk of ctx.chunks) {
    const sentence = chunk.text.split("\n\n")[0];
    claims.push({ text: sentence, evidence: [{ chunk_id: chunk.label, quote: sentence.slice(0, 40) }] });
  }
  const cited = await store.cite(ctx, anthropicMessage({ claims }));
  assert.equal(cited.summary.exact, claims.length);
  for (let i = 0; i < DOCS; i++) {
    await store.ingestText(`doc-${i}.md`, paragraphs(i, 2), { chunker: "paragraph:400" });
  }

  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const started = performance.now();
  const sweeping = store.sweep();
  assert.ok(sweeping instanceof Promise);
  // A read while the sweep writes: its own read-only connection.
  const health = await store.health();
  assert.equal(typeof health.status, "object");
  const summary = await sweeping;
  const elapsed = performance.now() - started;
  clearInterval(timer);
  assert.equal(summary.documents, DOCS);
  assert.equal(summary.status.moved, claims.length);
  // The event loop ran the timer throughout (it would not tick once were the sweep on it).
  assert.ok(elapsed > 20, `the sweep took ${elapsed.toFixed(1)} ms: too short to tell`);
  assert.ok(ticks >= Math.min(20, elapsed / 10), `${ticks} ticks in ${elapsed.toFixed(1)} ms`);
});

test("every store call returns a Promise", async () => {
  const dir = await folder("promise");
  const opening = Store.open(join(dir, "cs.db"));
  assert.ok(opening instanceof Promise);
  const store = await opening;
  for (const pending of [store.ingestText("a", "Some text."), store.docs(), store.health(), store.export(), store.citations()]) {
    assert.ok(pending instanceof Promise);
    await pending;
  }
});
