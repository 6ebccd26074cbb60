// Errors are CitestoreError subclasses with a stable code and the library's one-line message,
// in JavaScript's words (option and method names, never a CLI flag).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import {
  Store,
  CitestoreError,
  BadInput,
  BadAnswer,
  NotFound,
  UnknownContext,
  UnknownDocument,
  UnknownChunk,
  DatabaseError,
  SweepIncomplete,
} from "citestore";
import { folder, rejection, anthropicMessage } from "./helpers.mjs";

/** Checks what every error shares: one line, no CLI flag, the class's name. */
function oneLine(err, Class, code) {
  assert.ok(err instanceof CitestoreError);
  assert.ok(err instanceof Error);
  assert.ok(err instanceof Class);
  assert.equal(err.name, Class.name);
  assert.equal(err.code, code);
  assert.ok(!err.message.includes("\n"), err.message);
  assert.doesNotMatch(err.message, /(^|\s)--[a-z]/, err.message);
  return err;
}

test("errors: class, code and message", async (t) => {
  const dir = await folder("errors");
  const store = await Store.open(join(dir, "cs.db"));
  await store.ingestText("guide.md", "One paragraph.\n\nAnother paragraph.", { chunker: "paragraph:20" });
  const ctx = await store.context({ docs: ["guide.md"] });

  await t.test("BadInput", async () => {
    let err = await rejection(store.ingestText("guide.md", "text", { chunker: "paragraph:x" }), BadInput);
    oneLine(err, BadInput, "BAD_CHUNKER_SPEC");
    assert.match(err.message, /^chunker spec "paragraph:x": /);
    err = await rejection(store.ingestText("g", "short", { chunks: [{ start: 0, end: 9 }] }), BadInput);
    oneLine(err, BadInput, "BAD_INPUT");
    assert.equal(err.message, "chunks[0]: [0, 9) runs past the end of the text (5 string indices)");
    err = await rejection(store.ingestText("g", "short", { chunks: [{ start: 0, end: 5, id: "" }] }), BadInput);
    oneLine(err, BadInput, "BAD_CHUNKS");
    assert.match(err.message, /^chunks\[0\]: chunk id is empty/);
    err = await rejection(store.ingestText("  ", "text"), BadInput);
    oneLine(err, BadInput, "BAD_DOC_ID");
    assert.match(err.message, /give a doc id of visible characters \(e\.g\. "notes"\)$/);
    err = await rejection(store.changes({ since: "yesterday" }), BadInput);
    oneLine(err, BadInput, "BAD_SINCE");
    assert.equal(
      err.message,
      'since: "yesterday" is not a sweep id or a date; give e.g. { since: 12 }, { since: "2026-01-02" } or { since: "2026-01-02T03:04:05Z" }',
    );
    err = await rejection(store.sweep({ shard: "5/4" }), BadInput);
    oneLine(err, BadInput, "BAD_SHARD");
    assert.match(err.message, /^shard: "5\/4": .*give \{ shard: "I\/N" \}/);
    err = await rejection(store.citations({ status: "lots" }), BadInput);
    oneLine(err, BadInput, "BAD_INPUT");
    assert.equal(err.message, 'status: "lots" is not a status; give one of intact, moved, degraded, lost');
  });

  await t.test("BadAnswer names the JSON path", async () => {
    const err = await rejection(store.cite(ctx, anthropicMessage({ claims: [{ text: "x", evidence: [{ chunk_id: "a" }] }] })), BadAnswer);
    oneLine(err, BadAnswer, "BAD_ANSWER");
    assert.ok(err instanceof BadInput);
    assert.match(err.message, /^answer: content\[1\]\.input\.claims\[0\]\.evidence\[0\]/);
    assert.match(err.message, /nothing was stored$/);
    const notJson = await rejection(store.cite(ctx, "{not json"), BadAnswer);
    oneLine(notJson, BadAnswer, "BAD_ANSWER");
  });

  await t.test("NotFound and its kinds", async () => {
    let err = await rejection(store.show("c-000000000000"), NotFound);
    oneLine(err, NotFound, "UNKNOWN_CITATION");
    assert.equal(err.message, 'citation "c-000000000000" does not exist; a cite result\'s evidence holds the citation ids');
    err = await rejection(store.cite("ctx-nope", { claims: [] }), UnknownContext);
    oneLine(err, UnknownContext, "UNKNOWN_CONTEXT");
    assert.match(err.message, /store\.context\(\{ docs: \[\.\.\.\] \}\)/);
    err = await rejection(store.chunks("nope.md"), UnknownDocument);
    oneLine(err, UnknownDocument, "UNKNOWN_DOCUMENT");
    assert.equal(err.message, 'document "nope.md" is not in the store; store.docs() lists them');
    err = await rejection(store.context({ chunks: ["vec-404"] }), UnknownChunk);
    oneLine(err, UnknownChunk, "UNKNOWN_CHUNK");
    assert.ok(err instanceof NotFound);
    err = await rejection(store.report({ out: join(dir, "r.html") }), NotFound);
    oneLine(err, NotFound, "NO_SWEEPS");
    assert.match(err.message, /run store\.sweep\(\) first$/);
  });

  await t.test("DatabaseError", async () => {
    let err = await rejection(Store.open(join(dir, "none.db"), { readOnly: true }), DatabaseError);
    oneLine(err, DatabaseError, "NO_DATABASE");
    assert.match(err.message, /no database here; Store\.open\(path\) creates one \(\{ readOnly: true \} only opens an existing one\)$/);
    await writeFile(join(dir, "not.db"), "this is not SQLite, just text long enough to be read as a header");
    err = await rejection(Store.open(join(dir, "not.db")), DatabaseError);
    oneLine(err, DatabaseError, "NOT_A_DATABASE");
    const reader = await Store.open(join(dir, "cs.db"), { readOnly: true });
    assert.equal(reader.readOnly, true);
    assert.equal((await reader.docs()).length, 1);
    err = await rejection(reader.ingestText("x", "text"), DatabaseError);
    oneLine(err, DatabaseError, "READ_ONLY_STORE");
    assert.match(err.message, /ingestText writes, and this store was opened with \{ readOnly: true \}; open it with Store\.open\(path\) to write$/);
  });

  await t.test("a closed store", async () => {
    const other = await Store.open(join(dir, "cs.db"));
    other.close();
    const err = await rejection(other.health(), CitestoreError);
    oneLine(err, CitestoreError, "STORE_CLOSED");
  });

  await t.test("SweepIncomplete carries the summary", async () => {
    const file = join(dir, "doc.md");
    await writeFile(file, "Text that will turn binary.\n");
    await store.ingest(file, { docId: "doc.md" });
    await writeFile(file, Buffer.from([0x61, 0x00, 0x62, 0x00]));
    const err = await rejection(store.sweep(), SweepIncomplete);
    oneLine(err, SweepIncomplete, "SWEEP_INCOMPLETE");
    assert.equal(err.summary.errors.length, 1);
    assert.equal(err.summary.errors[0].docId, "doc.md");
    assert.equal(err.summary.errors[0].outcome, "failed");
    assert.match(err.message, /^sweep \d+: 1 of \d+ documents not swept: doc\.md: not swept: /);
  });

  await t.test("Store is opened with Store.open", () => {
    assert.throws(() => new Store(), { name: "CitestoreError", message: /Store\.open/ });
  });
});
