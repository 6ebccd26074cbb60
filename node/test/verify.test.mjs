// verify: a judge (here a command, told by its spec) decides each cited claim; claims whose
// evidence was never located are decided without it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { Store, BadInput } from "citestore";
import { folder, anthropicMessage, rejection } from "./helpers.mjs";

// Reads {"claim", "premise", "spans"} on stdin; supports a claim one of whose spans holds "$0.20".
const JUDGE = `
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const { spans } = JSON.parse(input);
  const supports = spans.some((span) => span.includes("$0.20"));
  process.stdout.write(JSON.stringify({ relation: supports ? "supports" : "silent", confidence: 0.9 }));
});
`;

test("verify with a command judge", async () => {
  const dir = await folder("verify");
  const judgeFile = join(dir, "judge.cjs");
  await writeFile(judgeFile, JUDGE);
  const store = await Store.open(join(dir, "cs.db"));
  const text = "Starter \u{1F600}: overage $0.20 per 1,000 calls.\n\nGrowth: overage $0.12 per 1,000 calls.";
  await store.ingestText("rates.md", text, { chunker: "paragraph:60" });
  const ctx = await store.context({ docs: ["rates.md"] });
  const [starter, growth] = ctx.chunks;
  await store.cite(ctx, anthropicMessage({
    claims: [
      { text: "Starter overage is $0.20.", evidence: [{ chunk_id: starter.label, quote: "overage $0.20 per 1,000 calls" }] },
      { text: "Growth overage is $0.12.", evidence: [{ chunk_id: growth.label, quote: "overage $0.12 per 1,000 calls" }] },
      { text: "Growth has an SLA.", evidence: [{ chunk_id: growth.label, quote: "a four-hour SLA" }] },
    ],
  }));
  const result = await store.verify({ context: ctx, judge: `command:${process.execPath} ${judgeFile}` });
  assert.equal(result.judge, `command:${process.execPath} ${judgeFile}`);
  assert.deepEqual(result.claims.map((c) => [c.verdict, c.relation]), [
    ["supported", "supports"],
    ["unsupported", "silent"],
    ["fabricated", null],
  ]);
  assert.equal(result.summary.judgeCalls, 2);
  assert.equal(result.summary.decidedWithoutJudge, 1);
  assert.equal((await store.health()).verification.supported, 1);
  const unjudged = await store.verify({ all: true });
  assert.equal(unjudged.judge, "none");
  assert.deepEqual(unjudged.claims.map((c) => c.verdict), ["unjudged", "unjudged", "fabricated"]);
  const err = await rejection(store.verify({ all: true, context: ctx }), BadInput);
  assert.equal(err.message, "verify: give exactly one of { context }, { all: true } or { citations: [...] }");
  const spec = await rejection(store.verify({ all: true, judge: "oracle:me" }), BadInput);
  assert.match(spec.message, /^judge: "oracle:me": unknown judge/);
});
