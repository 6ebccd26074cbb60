// The whole job through the installed package: your own chunks in, a context, an Anthropic
// message cited (exact, fuzzy, fabricated, unknown chunk, uncited), a new revision, a sweep,
// health, changes, show, citations, W3C export and the report file.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { Store, Context, chunksFromText, citedClaims, schema } from "citestore";
import { folder, anthropicMessage, openaiChatCompletion, located } from "./helpers.mjs";

const V1 = [
  "# Rate card",
  "Starter \u2014 included 50,000 calls/mo; overage $0.20 per 1,000 calls.",
  "Growth \u2014 included 500,000 calls / mo; overage $0.12 per 1,000 calls",
  "Enterprise pricing is available on request through your account manager.",
];
const V2 = [
  "# Rate card",
  "Updated for the fourth quarter.",
  "Starter \u2014 included 50,000 calls/mo; overage $0.20 per 1,000 calls.",
  "Growth \u2014 included 500,000 calls / mo; overage $0.12 per 1,000 calls",
  "Call us for custom terms.",
];

test("ingest, context, cite, sweep, health, changes, export, report", async (t) => {
  const dir = await folder("store");
  const store = await Store.open(join(dir, "cs.db"));
  assert.equal(store.readOnly, false);
  assert.equal(store.location, join(dir, "cs.db"));

  const v1 = V1.join("\n\n");
  // Pieces as a splitter gives them (the blank lines between them dropped), under our own ids.
  const chunks = chunksFromText(v1, V1).map((chunk, i) => ({ ...chunk, id: `vec-${i}` }));
  assert.deepEqual(
    chunks.map((c) => v1.slice(c.start, c.end)),
    V1,
  );

  let ctx;
  await t.test("ingestText with caller chunks", async () => {
    const ingested = await store.ingestText("rate-card.md", v1, { chunks });
    assert.deepEqual(ingested, {
      docId: "rate-card.md",
      source: "given",
      outcome: "new",
      seq: 1,
      extractor: "given",
      chunking: { spec: "caller", chunks: 4, created: true },
    });
    const held = await store.chunks("rate-card.md");
    assert.equal(held.chunking, "caller");
    assert.deepEqual(
      held.chunks.map((c) => [c.callerId, c.start, c.end, c.text]),
      chunks.map((c) => [c.id, c.start, c.end, c.text]),
    );
  });

  await t.test("context by our ids", async () => {
    ctx = await store.context({ chunks: ["vec-1", "vec-2", "vec-3"] });
    assert.ok(ctx instanceof Context);
    assert.match(ctx.id, /^ctx-/);
    assert.deepEqual(
      ctx.chunks.map((c) => c.callerId),
      ["vec-1", "vec-2", "vec-3"],
    );
    for (const chunk of ctx.chunks) {
      assert.equal(v1.slice(chunk.start, chunk.end), chunk.text);
      assert.equal(chunk.docId, "rate-card.md");
      assert.equal(chunk.revision, 1);
      assert.ok(ctx.prompt().includes(`<chunk label="${chunk.label}">`));
    }
    assert.deepEqual(JSON.parse(JSON.stringify(ctx)).context, ctx.id);
    // The same chunks in the same order are the same context.
    assert.equal((await store.context({ chunks: [{ id: "vec-1" }, "vec-2", "vec-3"] })).id, ctx.id);
  });

  const label = (id) => ctx.chunks.find((c) => c.callerId === id).label;
  const answer = () => ({
    claims: [
      { text: "Starter overage is $0.20 per 1,000 calls.", evidence: [{ chunk_id: label("vec-1"), quote: "overage $0.20 per 1,000 calls" }] },
      { text: "Growth includes 500,000 calls a month.", evidence: [{ chunk_id: label("vec-2"), quote: "growth \u2013 included 500,000 calls/mo" }] },
      { text: "Growth has an SLA.", evidence: [{ chunk_id: label("vec-2"), quote: "Growth includes a four-hour first-response SLA" }] },
      { text: "Enterprise overage is $0.04.", evidence: [{ chunk_id: "zzzz", quote: "overage $0.04 per 1,000 calls" }] },
      { text: "Growth is the cheapest for 800,000 calls.", evidence: [] },
      { text: "Enterprise pricing is on request.", evidence: [{ chunk_id: label("vec-3"), quote: "Enterprise pricing is available on request" }] },
    ],
  });

  let result;
  await t.test("cite an Anthropic message", async () => {
    result = await store.cite(ctx, anthropicMessage(answer()));
    assert.equal(result.context, ctx.id);
    assert.equal(result.alreadyRecorded, false);
    assert.deepEqual(
      result.claims.map((c) => c.evidence.map((e) => e.verdict)),
      [["exact"], ["fuzzy"], ["fabricated"], ["unknown-chunk"], [], ["exact"]],
    );
    assert.deepEqual(result.summary, { exact: 2, fabricated: 1, fuzzy: 1, uncited: 1, "unknown-chunk": 1 });
    assert.equal(result.claims[4].uncited, true);
    const [fabricated] = result.claims[2].evidence;
    assert.equal(fabricated.citation, null);
    assert.equal(fabricated.source, null);
    assert.equal(fabricated.chunkId, "rate-card.md@r1#" + fabricated.chunkId.split("#")[1]);
    const [unknown] = result.claims[3].evidence;
    assert.equal(unknown.chunkId, null);
    assert.equal(unknown.callerId, null);
    assert.equal(unknown.label, "zzzz");
    for (const ev of located(result)) {
      assert.match(ev.citation, /^c-/);
      assert.equal(v1.slice(ev.start, ev.end), ev.text);
      const shown = await store.show(ev.citation);
      assert.deepEqual(ev.source, {
        docId: "rate-card.md",
        contentHash: shown.citation.contentHash,
        start: ev.start,
        end: ev.end,
        revision: 1,
      });
    }
    assert.equal(result.claims[1].evidence[0].text, "Growth \u2014 included 500,000 calls / mo");
    assert.equal(result.claims[0].evidence[0].callerId, "vec-1");
  });

  await t.test("citedClaims: the claims with a SourceRef", () => {
    const cited = citedClaims(result);
    assert.deepEqual(
      cited.map((c) => c.text),
      ["Starter overage is $0.20 per 1,000 calls.", "Growth includes 500,000 calls a month.", "Enterprise pricing is on request."],
    );
    for (const claim of cited) {
      assert.ok(claim.sources.length >= 1);
      for (const s of claim.sources) assert.ok(v1.slice(s.start, s.end).length > 0);
    }
  });

  await t.test("the same answer in other shapes is already recorded", async () => {
    const call = { type: "tool-call", toolCallId: "call_1", toolName: "emit_answer", input: answer() };
    // An AI SDK 5 generateText result: `toolCalls` is a getter JSON.stringify leaves out.
    class GenerateTextResult {
      constructor() {
        this.steps = [{ content: [{ type: "text", text: "Here it is." }, call] }];
      }
      get toolCalls() {
        return this.steps.flatMap((step) => step.content.filter((part) => part.type === "tool-call"));
      }
    }
    const shapes = [
      answer(),
      JSON.stringify(answer()),
      new TextEncoder().encode(JSON.stringify(answer())),
      openaiChatCompletion(answer()),
      anthropicMessage(answer()).content[1],
      call,
      [call],
      new GenerateTextResult(),
    ];
    for (const shape of shapes) {
      const again = await store.cite(ctx.id, shape);
      assert.equal(again.alreadyRecorded, true);
      assert.deepEqual(
        located(again).map((e) => e.source),
        located(result).map((e) => e.source),
      );
    }
  });

  await t.test("importAnthropic: a Citations API response", async () => {
    const chunk = ctx.chunks[0];
    const cited = "overage $0.20 per 1,000 calls";
    const at = chunk.text.indexOf(cited);
    const imported = await store.importAnthropic(ctx, {
      id: "msg_02",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        {
          type: "text",
          text: "Starter overage is $0.20 per 1,000 calls",
          citations: [
            { type: "char_location", cited_text: cited, document_index: 0, document_title: "rate-card.md", start_char_index: at, end_char_index: at + cited.length },
          ],
        },
      ],
      stop_reason: "end_turn",
    });
    const [ev] = located(imported);
    assert.equal(ev.verdict, "exact");
    assert.equal(v1.slice(ev.start, ev.end), cited);
    assert.equal(ev.location.agreement, "agrees");
    // The API's own object keeps the API's keys.
    assert.equal(ev.location.api.start_char_index, at);
  });

  const v2 = V2.join("\n\n");
  await t.test("a new revision, then a sweep", async () => {
    const chunks2 = chunksFromText(v2, V2).map((chunk, i) => ({ ...chunk, id: `v2-${i}` }));
    const ingested = await store.ingestText("rate-card.md", v2, { chunks: chunks2 });
    assert.equal(ingested.outcome, "revised");
    assert.equal(ingested.seq, 2);
    const summary = await store.sweep();
    assert.equal(summary.documents, 1);
    assert.deepEqual(summary.errors, []);
    assert.deepEqual(summary.status, { lost: 1, moved: 3 });
    assert.equal(typeof summary.seconds, "number");
    assert.equal(summary.citationsChanged, 4);
  });

  await t.test("health", async () => {
    const health = await store.health();
    assert.deepEqual(health.status, { lost: 1, moved: 3 });
    assert.equal(health.trend.length, 1);
    assert.equal(health.trend[0].lost, 1);
    assert.equal(typeof health.trend[0].startedAt, "string");
    assert.deepEqual(health.documents, [{ docId: "rate-card.md", status: { lost: 1, moved: 3 } }]);
    assert.deepEqual(health.retired, { documents: [], citations: 0 });
  });

  await t.test("changes: before in revision 1, after in revision 2", async () => {
    const changes = await store.changes();
    assert.equal(changes.changes.length, 4);
    for (const change of changes.changes) {
      assert.equal(v1.slice(change.before.start, change.before.end), change.citedText);
      if (change.after.status === "moved") {
        assert.equal(change.after.revision, 2);
        assert.equal(v2.slice(change.after.start, change.after.end), change.citedText);
      } else {
        assert.equal(change.after.status, "lost");
        assert.equal(change.quote, "Enterprise pricing is available on request");
      }
    }
    assert.deepEqual(changes.revisionOnly, []);
  });

  await t.test("citations, show", async () => {
    const lost = await store.citations({ status: "lost" });
    assert.equal(lost.length, 1);
    assert.equal(lost[0].current, null);
    const moved = await store.citations({ status: ["moved"], doc: "rate-card.md" });
    assert.equal(moved.length, 3);
    for (const line of moved) {
      assert.equal(v2.slice(line.current.start, line.current.end), line.citedText);
      assert.equal(v2.slice(line.foundStart, line.foundEnd), line.citedText);
    }
    const shown = await store.show(moved[0].id);
    assert.equal(v1.slice(shown.citation.start, shown.citation.end), shown.citation.spanText);
    assert.equal(v2.slice(shown.current.start, shown.current.end), shown.currentText);
    assert.equal(shown.status, "moved");
    assert.equal(shown.history.length, 1);
    assert.equal(v2.slice(shown.history[0].start, shown.history[0].end), shown.currentText);
  });

  await t.test("export, as lines and as W3C Web Annotations", async () => {
    const lines = await store.export();
    assert.equal(lines.length, 4);
    for (const line of lines) {
      assert.equal(v1.slice(line.start, line.end).length > 0, true);
      if (line.current) assert.equal(line.current.revision, 2);
      else assert.equal(v1.slice(line.lastKnown.start, line.lastKnown.end), "Enterprise pricing is available on request");
    }
    const annotations = await store.export({ format: "w3c" });
    assert.equal(annotations.length, 4);
    for (const a of annotations) {
      assert.equal(a.type, "Annotation");
      const quote = a.target.selector.find((s) => s.type === "TextQuoteSelector");
      const position = a.target.selector.find((s) => s.type === "TextPositionSelector");
      const revision = a.target.state["citestore:revision"];
      const text = revision === 2 ? v2 : v1;
      assert.equal(text.slice(position.start, position.end), quote.exact);
      assert.deepEqual(Object.keys(position).sort(), ["end", "start", "type"]);
      assert.equal(a["citestore:status"] === "lost", typeof a["citestore:lost"] === "string");
    }
  });

  await t.test("report: one HTML file", async () => {
    const out = join(dir, "report.html");
    const report = await store.report({ out });
    assert.equal(report.out, out);
    assert.equal(report.changed, 4);
    assert.deepEqual(report.status, { lost: 1, moved: 3 });
    assert.equal((await stat(out)).size, report.bytes);
    assert.match(await readFile(out, "utf8"), /^<!DOCTYPE html>/i);
  });

  await t.test("docs, retire", async () => {
    const [doc] = await store.docs();
    assert.equal(doc.docId, "rate-card.md");
    assert.equal(doc.charLen, v2.length);
    assert.equal(doc.latestSeq, 2);
    assert.deepEqual(await store.retire("rate-card.md"), { retired: [{ docId: "rate-card.md", changed: true }] });
    assert.deepEqual((await store.health()).retired, { documents: ["rate-card.md"], citations: 4 });
  });

  store.close();
  assert.equal(store.closed, true);
});

test("ingest files and folders; your chunks of one file", async () => {
  const dir = await folder("ingest");
  const { writeFile, mkdir } = await import("node:fs/promises");
  await mkdir(join(dir, "docs"));
  await writeFile(join(dir, "docs", "a.md"), "First paragraph.\n\nSecond paragraph \u{1F600} here.\n");
  await writeFile(join(dir, "docs", "b.txt"), "Another document.\n");
  const store = await Store.open(join(dir, "cs.db"));
  const report = await store.ingest(join(dir, "docs"), { chunker: "paragraph:1500" });
  assert.deepEqual(
    report.documents.map((d) => [d.docId, d.outcome, d.chunking.spec]),
    [["a.md", "new", "paragraph:1500"], ["b.txt", "new", "paragraph:1500"]],
  );
  const text = "Own chunks \u{1F600} of one file.\n\nIts second part.\n";
  await writeFile(join(dir, "one.md"), text);
  const chunks = chunksFromText(text, ["Own chunks \u{1F600} of one file.", "Its second part."]);
  const one = await store.ingest(join(dir, "one.md"), { docId: "one", chunks });
  assert.equal(one.documents[0].chunking.spec, "caller");
  const held = await store.chunks("one");
  assert.deepEqual(held.chunks.map((c) => text.slice(c.start, c.end)), ["Own chunks \u{1F600} of one file.", "Its second part."]);
});

test("check reads every page; a sweep does so only when due or asked", async () => {
  const dir = await folder("check");
  const { writeFile, mkdir } = await import("node:fs/promises");
  await mkdir(join(dir, "docs"));
  await writeFile(join(dir, "docs", "a.md"), "First paragraph.\n\nSecond paragraph.\n");
  const store = await Store.open(join(dir, "cs.db"));
  await store.ingest(join(dir, "docs"));
  assert.equal(typeof (await store.sweep()).fullCheckSeconds, "number", "never checked: checked");
  assert.equal((await store.sweep()).fullCheckSeconds, undefined, "not again the same week");
  const checked = await store.check();
  assert.equal(checked.pagesChecked, true);
  assert.equal(typeof checked.checkedAt, "string");
  assert.equal(typeof (await store.sweep({ fullCheck: true })).fullCheckSeconds, "number");
  assert.equal((await store.sweep()).fullCheckSeconds, undefined);
  store.close();
});

test("schema: the emit_answer tool in each API's shape, keys as the API wants them", () => {
  assert.equal(schema().name, "emit_answer");
  assert.ok("input_schema" in schema("anthropic"));
  assert.equal(schema("openai").function.strict, true);
  assert.equal(schema("openai-responses").name, "emit_answer");
  const aiSdk = schema("ai-sdk");
  assert.deepEqual(Object.keys(aiSdk).sort(), ["description", "inputSchema"]);
  assert.equal(aiSdk.inputSchema.additionalProperties, false);
});
