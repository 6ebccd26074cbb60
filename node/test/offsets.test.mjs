// Offsets are JavaScript string indices on this side: for text full of emoji and other
// characters above U+FFFF (two UTF-16 code units each, one code point in the store), every span
// returned satisfies `text.slice(start, end) === quote`, before and after a sweep, whichever
// way the store learns the text (given here, or read back from the chunks, or from `texts`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Store, chunksFromText, BadInput } from "citestore";
import { folder, anthropicMessage, located, rejection } from "./helpers.mjs";

const PARAGRAPHS_V1 = [
  "Intro \u{1F600} line with \u{1F389} party.",
  "The \u{1D518}\u{1D52B}\u{1D526}\u{1D520}\u{1D52C}\u{1D521}\u{1D522} rate is \u{1F642} $5 per call \u{1F44D}.",
  "Support \u{1F6DF} answers within one day.",
  "Last \u{1F3C1} words.",
];
const PARAGRAPHS_V2 = [
  "\u{1F195} A new line \u{1F195} on top.",
  ...PARAGRAPHS_V1.slice(0, 2),
  "Meanwhile \u{1F30D} more \u{1F30F} text.",
  ...PARAGRAPHS_V1.slice(2),
];
const V1 = PARAGRAPHS_V1.join("\n\n");
const V2 = PARAGRAPHS_V2.join("\n\n");
const QUOTES = [
  "$5 per call \u{1F44D}",
  "\u{1D518}\u{1D52B}\u{1D526}\u{1D520}\u{1D52C}\u{1D521}\u{1D522} rate",
  "answers within one day",
];

/** Cites every quote against a context of all of `docId`'s chunks; returns the result. */
async function citeAll(store, docId) {
  const ctx = await store.context({ docs: [docId] });
  for (const chunk of ctx.chunks) {
    assert.equal(V1.slice(chunk.start, chunk.end), chunk.text);
  }
  const claims = QUOTES.map((quote) => {
    const chunk = ctx.chunks.find((c) => c.text.includes(quote));
    return { text: `About ${quote}`, evidence: [{ chunk_id: chunk.label, quote }] };
  });
  return store.cite(ctx, anthropicMessage({ claims }));
}

/** Every span the store returns for `docId`'s citations, checked against `text` of its revision. */
async function checkAll(store, docId, revision, text) {
  for (const line of await store.export()) {
    if (line.docId !== docId) continue;
    assert.equal(V1.slice(line.start, line.end), line.quote);
    assert.equal(line.current.revision, revision);
    assert.equal(text.slice(line.current.start, line.current.end), line.quote);
  }
  for (const line of await store.citations({ doc: docId })) {
    assert.equal(text.slice(line.foundStart, line.foundEnd), line.quote);
    assert.equal(text.slice(line.current.start, line.current.end), line.quote);
    const shown = await store.show(line.id);
    assert.equal(V1.slice(shown.citation.start, shown.citation.end), line.quote);
    assert.equal(text.slice(shown.current.start, shown.current.end), line.quote);
    for (const row of shown.history) assert.equal(text.slice(row.start, row.end), line.quote);
  }
  for (const a of await store.export({ format: "w3c" })) {
    if (a.target.source !== docId) continue;
    const position = a.target.selector.find((s) => s.type === "TextPositionSelector");
    const quote = a.target.selector.find((s) => s.type === "TextQuoteSelector");
    assert.equal(text.slice(position.start, position.end), quote.exact);
  }
  const chunks = await store.chunks(docId);
  assert.equal(chunks.revision, revision);
  for (const chunk of chunks.chunks) assert.equal(text.slice(chunk.start, chunk.end), chunk.text);
}

for (const [how, options] of [
  ["your own chunks (gaps between them)", (text, paragraphs) => ({ chunks: chunksFromText(text, paragraphs) })],
  ["a chunker", () => ({ chunker: "paragraph:40" })],
]) {
  test(`emoji text, ${how}: every span is text.slice(start, end), before and after a sweep`, async () => {
    const dir = await folder("emoji");
    const store = await Store.open(join(dir, "cs.db"));
    await store.ingestText("emoji.md", V1, options(V1, PARAGRAPHS_V1));
    const result = await citeAll(store, "emoji.md");
    assert.deepEqual(
      located(result).map((ev) => ev.verdict),
      ["exact", "exact", "exact"],
    );
    for (const ev of located(result)) {
      assert.equal(V1.slice(ev.start, ev.end), ev.quote);
      assert.equal(ev.text, ev.quote);
      assert.equal(V1.slice(ev.source.start, ev.source.end), ev.quote);
    }
    await checkAll(store, "emoji.md", 1, V1);

    await store.ingestText("emoji.md", V2, options(V2, PARAGRAPHS_V2));
    const summary = await store.sweep();
    assert.deepEqual(summary.status, { moved: 3 });
    await checkAll(store, "emoji.md", 2, V2);
    const changes = await store.changes();
    assert.equal(changes.changes.length, 3);
    for (const change of changes.changes) {
      assert.equal(V1.slice(change.before.start, change.before.end), change.quote);
      assert.equal(V2.slice(change.after.start, change.after.end), change.quote);
    }
    const [doc] = await store.docs();
    // A count, not an offset: code points, as the store counts.
    assert.equal(doc.charLen, [...V2].length);
    assert.notEqual(doc.charLen, V2.length);

    // Another Store on the same file (another process, in effect) knows nothing it was given:
    // a chunker's chunks hold the whole text; past a gap between your chunks, the revision's
    // text is read from the store.
    const other = await Store.open(join(dir, "cs.db"), { readOnly: true });
    await checkAll(other, "emoji.md", 2, V2);
    if (how !== "a chunker") {
      // A `texts` function, when given, is asked first (the store is not read for it).
      const asked = [];
      const texts = async (docId, revision) => {
        asked.push([docId, revision]);
        return revision === 1 ? V1 : V2;
      };
      const knowing = await Store.open(join(dir, "cs.db"), { readOnly: true, texts });
      await checkAll(knowing, "emoji.md", 2, V2);
      assert.deepEqual(asked.sort(), [["emoji.md", 1], ["emoji.md", 2]]);
    }
  });
}

test("your chunks: string indices in, a cut character refused", async () => {
  const dir = await folder("chunks");
  const store = await Store.open(join(dir, "cs.db"));
  const text = "a\u{1F600}b\u{1F600}c";
  // [0, 3) is "a😀"; 2 falls inside the emoji.
  const err = await rejection(store.ingestText("d", text, { chunks: [{ start: 0, end: 2 }] }), BadInput);
  assert.equal(err.code, "BAD_INPUT");
  assert.equal(
    err.message,
    "chunks[0].end: 2 falls between the two UTF-16 code units of one character (an emoji or other character above U+FFFF); give an index at a character boundary",
  );
  await store.ingestText("d", text, { chunks: [{ start: 0, end: 3, id: "x" }, { start: 3, end: text.length, id: "y" }] });
  const held = await store.chunks("d");
  assert.deepEqual(held.chunks.map((c) => [c.start, c.end, c.text]), [[0, 3, "a\u{1F600}"], [3, 7, "b\u{1F600}c"]]);
  // Its id names code points: ids are opaque.
  assert.equal(held.chunks[1].chunkId, "d@r1#2-5");
});

test("chunksFromText: pieces found in order, from where the previous one started", () => {
  const text = "\u{1F600} same. same. other \u{1F600} same.";
  const chunks = chunksFromText(text, ["same.", "same.", { pageContent: "other \u{1F600}", id: "doc-3" }, "same."]);
  assert.deepEqual(chunks.map((c) => [c.start, c.end]), [[3, 8], [9, 14], [15, 23], [24, 29]]);
  for (const chunk of chunks) assert.equal(text.slice(chunk.start, chunk.end), chunk.text);
  assert.equal(chunks[2].id, "doc-3");
  assert.throws(() => chunksFromText(text, ["other", "same. same."]), {
    name: "BadInput",
    message: /^pieces\[1\] is not in the text after index 16;/,
  });
});
