// store.importResponse over every provider fixture (fixtures/providers, whose README gives each
// file's expected outcome): the answer spans and every offset come back as JavaScript string
// indices, sources map onto the context's chunks, quotes are located, a source named without a
// quote is `review` with a proposed sentence, web sources are external, and a malformed
// response is refused naming its JSON path with nothing stored.
//
// The fixtures are found through the installed package (npm installs node/ as a link to the
// repository); CITESTORE_ROOT overrides.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { realpathSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Store, BadAnswer, BadInput } from "citestore";
import { folder, rejection } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const ROOT = process.env.CITESTORE_ROOT || dirname(dirname(realpathSync(require.resolve("citestore/package.json"))));
const FIXTURES = join(ROOT, "fixtures", "providers");
const DOCS = join(FIXTURES, "docs");

// The README's contexts.
const CONTEXTS = {
  P3: ["tall-penguins.txt", "penguin-habitats.txt", "animals.txt"],
  B: ["benefits.txt"],
  AI: ["ai.txt"],
  C: ["cheetah.txt"],
  K: ["kaiserpinguin.txt", "kotei-pengin.txt"],
};

// Evidence expected: [doc, "review"] (no quote, chunk-level), [doc, "exact", start, end] (a
// quote located at the doc's code points [start, end)). External: the number of web sources.
const review = (doc) => ({ doc, verdict: "review" });
const exact = (doc, start, end) => ({ doc, verdict: "exact", start, end });

// Per file: the context, and per claim its span in code points of the answer, its evidence,
// and how many external citations it has.
const EXPECTED = {
  cohere: {
    "recorded-benefits.json": {
      context: "B",
      claims: [
        { span: [52, 71], text: "Automation of tasks", evidence: [review("benefits.txt")] },
        { span: [75, 97], text: "Better decision-making", evidence: [review("benefits.txt")] },
        { span: [101, 115], text: "Cost reduction", evidence: [review("benefits.txt")] },
      ],
    },
    "docs-auto-ids.json": {
      context: "P3",
      claims: [
        { span: [0, 16], text: "Emperor penguins", evidence: [review("tall-penguins.txt")] },
        { span: [25, 42], text: "tallest penguins.", evidence: [review("tall-penguins.txt")] },
        { span: [61, 72], text: "Antarctica.", evidence: [review("penguin-habitats.txt")] },
      ],
    },
    "docs-user-ids.json": {
      context: "P3",
      claims: [
        { span: [4, 41], text: "tallest penguins are Emperor penguins", evidence: [review("tall-penguins.txt")] },
        { span: [52, 76], text: "only live in Antarctica.", evidence: [review("penguin-habitats.txt")] },
      ],
    },
  },
  gemini: {
    "retrieval-multilingual.json": {
      context: "K",
      claims: [
        { span: [0, 112], evidence: [exact("kaiserpinguin.txt", 0, 89)] },
        { span: [113, 155], text: "Sie leben ausschließlich in der Antarktis.", evidence: [review("kaiserpinguin.txt")] },
        {
          span: [156, 194],
          text: "日本語では「コウテイペンギン」と呼ばれ、現生のペンギンの中で最大の種である。",
          evidence: [exact("kotei-pengin.txt", 35, 53)],
        },
      ],
    },
    "retrieval-multilingual.snake.json": { sameAs: "retrieval-multilingual.json" },
    "google-search-docs.json": {
      context: "P3",
      claims: [
        { span: [0, 56], text: "Spain won Euro 2024, defeating England 2-1 in the final.", evidence: [], external: 1 },
        { span: [57, 126], text: "This victory marks Spain's record fourth European Championship title.", evidence: [], external: 2 },
      ],
    },
  },
  "openai-responses": {
    "recorded-file-search.json": {
      context: "AI",
      claims: [{ span: [154, 349], evidence: [exact("ai.txt", 0, 1928)] }],
    },
    "file-search-no-results.json": {
      context: "P3",
      claims: [
        { span: [0, 42], text: "Emperor penguins are the tallest penguins.", evidence: [review("tall-penguins.txt")] },
        { span: [43, 72], text: "They only live in Antarctica.", evidence: [review("penguin-habitats.txt")] },
      ],
    },
    "file-search-with-results.json": {
      context: "P3",
      claims: [
        { span: [0, 42], evidence: [exact("tall-penguins.txt", 0, 33)] },
        { span: [43, 72], evidence: [exact("penguin-habitats.txt", 0, 41)] },
      ],
    },
    "recorded-web-search.json": {
      context: "P3",
      claims: [
        [486, 606],
        [912, 1035],
        [1346, 1472],
        [1884, 2023],
        [2404, 2540],
      ].map((span) => ({ span, evidence: [], external: 1 })),
    },
  },
  "ai-sdk": {
    "generate-text.json": {
      context: "P3",
      claims: [
        { span: [2, 44], text: "Emperor penguins are the tallest penguins.", evidence: [review("tall-penguins.txt")] },
        { span: [48, 79], text: "They only live in Antarctica 🧊.", evidence: [exact("penguin-habitats.txt", 0, 41)] },
        { span: [80, 121], text: "They breed during the Antarctic winter 🥚.", evidence: [], external: 1 },
      ],
    },
    "generate-text-steps.json": { sameAs: "generate-text.json" },
  },
  "langchain-quoted": {
    "recorded-quoted.json": {
      context: "C",
      claims: [
        {
          span: [0, 64],
          text: "Cheetahs are capable of running at 93 to 104 km/h (58 to 65 mph)",
          evidence: [exact("cheetah.txt", 444, 618)],
        },
      ],
    },
    "recorded-cited.json": {
      context: "C",
      claims: [{ span: [0, 95], evidence: [review("cheetah.txt")] }],
    },
    "quoted-penguins.json": {
      context: "P3",
      claims: [
        {
          span: [0, 76],
          text: "Emperor penguins are the tallest penguins, and they only live in Antarctica.",
          evidence: [exact("tall-penguins.txt", 0, 33), exact("penguin-habitats.txt", 0, 41)],
        },
      ],
    },
    "cited-penguins.json": {
      context: "P3",
      claims: [{ span: [0, 76], evidence: [review("tall-penguins.txt"), review("penguin-habitats.txt")] }],
    },
  },
};

const WEB_KINDS = new Set(["web", "url", "url_citation", "container_file_citation"]);

/** The string index of code point offset `cp` of `text`. */
function utf16(text, cp) {
  return Array.from(text).slice(0, cp).join("").length;
}

async function fixture(format, file) {
  return readFile(join(FIXTURES, format, file), "utf8");
}

async function docText(doc) {
  return readFile(join(DOCS, doc), "utf8");
}

/** A store with fixtures/providers/docs ingested (one chunk per document) and the README's contexts. */
async function providerStore(dir, name) {
  const store = await Store.open(join(dir, `${name}.db`));
  await store.ingest(DOCS, { chunker: "paragraph:2000" });
  const contexts = {};
  for (const [key, docs] of Object.entries(CONTEXTS)) contexts[key] = await store.context({ docs });
  return { store, contexts };
}

/** Citation ids per claim. */
function ids(result) {
  return result.claims.map((claim) => claim.evidence.map((ev) => ev.citation));
}

/** Checks an import's result against the README's expectation for the file. */
async function check(result, expected, where) {
  assert.equal(typeof result.answer, "string", `${where}: the answer`);
  const answer = result.answer;
  assert.equal(result.claims.length, expected.claims.length, `${where}: claims`);
  for (const [i, want] of expected.claims.entries()) {
    const claim = result.claims[i];
    const at = `${where} claim ${i}`;
    // The claim's span, as string indices of the answer, slices the answer to the claim.
    assert.deepEqual(claim.answerSpan, { start: utf16(answer, want.span[0]), end: utf16(answer, want.span[1]) }, `${at}: answerSpan`);
    assert.equal(answer.slice(claim.answerSpan.start, claim.answerSpan.end), claim.text, `${at}: answer.slice(answerSpan)`);
    if (want.text !== undefined) assert.equal(claim.text, want.text, `${at}: text`);
    assert.equal(claim.evidence.length, want.evidence.length, `${at}: evidence`);
    for (const [j, ev] of claim.evidence.entries()) {
      const w = want.evidence[j];
      const e = `${at} evidence ${j}`;
      assert.equal(ev.verdict, w.verdict, `${e}: verdict (${ev.reason})`);
      assert.ok(ev.chunkId.startsWith(`${w.doc}@r1#`), `${e}: ${ev.chunkId} is a chunk of ${w.doc}`);
      assert.match(ev.citation, /^c-[0-9a-f]{12}$/, `${e}: stored`);
      const doc = await docText(w.doc);
      if (w.verdict === "exact") {
        assert.notEqual(ev.quote, "", `${e}: quoted`);
        assert.equal(ev.start, utf16(doc, w.start), `${e}: start`);
        assert.equal(ev.end, utf16(doc, w.end), `${e}: end`);
        assert.equal(doc.slice(ev.start, ev.end), ev.text, `${e}: the revision's text at the span`);
        assert.equal(ev.proposal, undefined, `${e}: a located quote proposes nothing`);
      } else {
        // No quote: review, never located as exact/fuzzy, with a proposed sentence.
        assert.equal(ev.quote, "", `${e}: no quote`);
        assert.ok(ev.reason.startsWith("the provider gave no quote"), `${e}: reason ${ev.reason}`);
        assert.ok(ev.proposal, `${e}: a proposal`);
        assert.equal(doc.slice(ev.proposal.start, ev.proposal.end), ev.proposal.text, `${e}: the proposal slices the revision`);
        assert.equal(typeof ev.proposal.score, "number");
      }
      assert.equal(ev.source.docId, w.doc, `${e}: source`);
    }
    const external = claim.external ?? [];
    assert.equal(external.length, want.external ?? 0, `${at}: external`);
    for (const x of external) {
      assert.ok(WEB_KINDS.has(x.kind), `${at}: external kind ${x.kind}`);
      assert.match(x.url, /^https:\/\//, `${at}: external url`);
    }
    if (want.evidence.length === 0) assert.equal(claim.uncited, true, `${at}: uncited`);
  }
  for (const claim of result.claims) {
    for (const ev of claim.evidence) {
      if (ev.quote === "") assert.equal(ev.verdict, "review", `${where}: a source without a quote is review`);
    }
  }
}

test("importResponse: every provider fixture gives the README's outcome, offsets as string indices", async (t) => {
  const dir = await folder("providers");
  const formats = (await readdir(FIXTURES, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && d.name !== "docs")
    .map((d) => d.name)
    .sort();
  assert.deepEqual(formats, Object.keys(EXPECTED).sort(), "every format folder has expectations");
  for (const format of formats) {
    const files = (await readdir(join(FIXTURES, format))).filter((f) => f.endsWith(".json")).sort();
    assert.deepEqual(files, Object.keys(EXPECTED[format]).sort(), `every ${format} fixture has expectations`);
    for (const file of files) {
      await t.test(`${format}/${file}`, async () => {
        let expected = EXPECTED[format][file];
        if (expected.sameAs) expected = EXPECTED[format][expected.sameAs];
        const { store, contexts } = await providerStore(dir, `${format}-${file}`);
        try {
          const context = contexts[expected.context];
          const result = await store.importResponse(format, context, JSON.parse(await fixture(format, file)));
          assert.equal(result.context, context.id);
          assert.equal(result.alreadyRecorded, false);
          await check(result, expected, `${format}/${file}`);
          // The same response again stores nothing new.
          const again = await store.importResponse(format, context.id, await fixture(format, file));
          assert.equal(again.alreadyRecorded, true);
          assert.deepEqual(ids(again), ids(result));
        } finally {
          store.close();
        }
      });
    }
  }
});

test("importResponse: the AI SDK's UTF-16 startIndex/endIndex are the answer spans as given", async () => {
  const dir = await folder("providers-ai-sdk");
  const { store, contexts } = await providerStore(dir, "ai-sdk");
  try {
    for (const file of ["generate-text.json", "generate-text-steps.json"]) {
      const response = JSON.parse(await fixture("ai-sdk", file));
      const result = await store.importResponse("ai-sdk", contexts.P3, response);
      // The answer has emoji (astral characters): code points and string indices differ.
      assert.notEqual(Array.from(result.answer).length, result.answer.length);
      assert.equal(result.claims.length, response.citations.length);
      for (const [i, claim] of result.claims.entries()) {
        const given = response.citations[i];
        assert.deepEqual(claim.answerSpan, { start: given.startIndex, end: given.endIndex }, `${file} claim ${i}`);
        assert.equal(result.answer.slice(claim.answerSpan.start, claim.answerSpan.end), claim.text);
      }
      assert.deepEqual(
        result.claims.map((c) => c.answerSpan),
        [
          { start: 3, end: 45 },
          { start: 51, end: 83 },
          { start: 84, end: 126 },
        ],
      );
      const [web] = result.claims[2].external;
      assert.equal(web.kind, "url");
      assert.equal(web.url, "https://en.wikipedia.org/wiki/Emperor_penguin");
    }
  } finally {
    store.close();
  }
});

test("importResponse: Gemini's UTF-8 byte offsets over a non-ASCII answer slice it to each claim", async () => {
  const dir = await folder("providers-gemini");
  const { store, contexts } = await providerStore(dir, "gemini");
  try {
    const camel = await store.importResponse("gemini", contexts.K, await fixture("gemini", "retrieval-multilingual.json"));
    for (const claim of camel.claims) {
      assert.equal(camel.answer.slice(claim.answerSpan.start, claim.answerSpan.end), claim.text);
    }
    assert.equal(camel.claims[2].text, "日本語では「コウテイペンギン」と呼ばれ、現生のペンギンの中で最大の種である。");
    // The google-genai SDK's snake_case dump is the same response: the same citations.
    const snake = await store.importResponse("gemini", contexts.K, await fixture("gemini", "retrieval-multilingual.snake.json"));
    assert.equal(snake.alreadyRecorded, true);
    assert.deepEqual(ids(snake), ids(camel));
  } finally {
    store.close();
  }
});

test("importResponse: a proposal's offsets are string indices of the revision (emoji before it)", async () => {
  const dir = await folder("providers-proposal");
  const store = await Store.open(join(dir, "proposal.db"));
  try {
    const text = "🐧🐧 Penguins of the far south. Emperor penguins are the tallest of all penguins.\n";
    await store.ingestText("emoji.txt", text, { chunker: "paragraph:2000" });
    const ctx = await store.context({ docs: ["emoji.txt"] });
    const answer = "Emperor penguins are the tallest.";
    const response = {
      message: {
        role: "assistant",
        content: [{ type: "text", text: answer }],
        citations: [{ start: 0, end: answer.length, text: answer, sources: [{ type: "document", id: "emoji.txt", document: { id: "emoji.txt" } }], type: "TEXT_CONTENT" }],
      },
    };
    const result = await store.importResponse("cohere", ctx, response);
    const [ev] = result.claims[0].evidence;
    assert.equal(ev.verdict, "review");
    assert.equal(ev.quote, "");
    assert.equal(ev.proposal.text, "Emperor penguins are the tallest of all penguins.");
    // Two astral characters before it: its string index is 2 more than its code point.
    assert.equal(ev.proposal.start, text.indexOf("Emperor"));
    assert.equal(ev.proposal.start, Array.from(text.slice(0, ev.proposal.start)).length + 2);
    assert.equal(text.slice(ev.proposal.start, ev.proposal.end), ev.proposal.text);
    assert.equal(text.slice(ev.start, ev.end), ev.text);
  } finally {
    store.close();
  }
});

test("importResponse: the same response as an object, a JSON string or UTF-8 bytes is one import", async () => {
  const dir = await folder("providers-forms");
  const { store, contexts } = await providerStore(dir, "forms");
  try {
    const json = await fixture("cohere", "docs-auto-ids.json");
    const fromObject = await store.importResponse("cohere", contexts.P3, JSON.parse(json));
    assert.equal(fromObject.alreadyRecorded, false);
    const fromString = await store.importResponse("cohere", contexts.P3.id, json);
    assert.equal(fromString.alreadyRecorded, true);
    assert.deepEqual(ids(fromString), ids(fromObject));
    const fromBytes = await store.importResponse("cohere", contexts.P3, new TextEncoder().encode(json));
    assert.equal(fromBytes.alreadyRecorded, true);
    assert.deepEqual(ids(fromBytes), ids(fromObject));
    assert.deepEqual(fromString.claims, fromObject.claims);
  } finally {
    store.close();
  }
});

test("importResponse: a malformed response is BadAnswer naming the JSON path, nothing stored", async () => {
  const dir = await folder("providers-bad");
  const { store, contexts } = await providerStore(dir, "bad");
  try {
    const before = await store.citations();
    const response = JSON.parse(await fixture("cohere", "docs-auto-ids.json"));
    response.message.citations[1].sources = "doc:0";
    const err = await rejection(store.importResponse("cohere", contexts.P3, response), BadAnswer);
    assert.equal(err.code, "BAD_ANSWER");
    assert.match(err.message, /^response: /);
    assert.match(err.message, /message\.citations\[1\]\.sources/);
    const gemini = JSON.parse(await fixture("gemini", "retrieval-multilingual.json"));
    gemini.candidates[0].groundingMetadata.groundingSupports[0].segment.endIndex = "x";
    const err2 = await rejection(store.importResponse("gemini", contexts.K, gemini), BadAnswer);
    assert.match(err2.message, /groundingSupports\[0\]\.segment\.endIndex/);
    const notJson = await rejection(store.importResponse("ai-sdk", contexts.P3, "{ not json"), BadAnswer);
    assert.match(notJson.message, /^response: /);
    assert.deepEqual(await store.citations(), before, "nothing was stored");
  } finally {
    store.close();
  }
});

test("importResponse: format and sent are checked (BadInput), sent is anthropic's", async () => {
  const dir = await folder("providers-input");
  const { store, contexts } = await providerStore(dir, "input");
  try {
    const json = await fixture("cohere", "docs-auto-ids.json");
    const unknown = await rejection(store.importResponse("mistral", contexts.P3, json), BadInput);
    assert.equal(unknown.code, "BAD_INPUT");
    assert.match(unknown.message, /^format: unknown response format "mistral"; expected one of anthropic, cohere, gemini, openai-responses, ai-sdk, langchain-quoted/);
    assert.ok(!(unknown instanceof BadAnswer));
    const sent = await rejection(store.importResponse("cohere", contexts.P3, json, { sent: "chunks" }), BadInput);
    assert.match(sent.message, /^sent applies to anthropic responses only/);
    await rejection(store.importResponse(42, contexts.P3, json), BadInput);
    await rejection(store.importResponse("cohere", contexts.P3, json, "chunks"), BadInput);
    assert.deepEqual(await store.citations(), [], "nothing was stored");
  } finally {
    store.close();
  }
});

test("importResponse('anthropic') is importAnthropic: the same citations, sent taken", async () => {
  const dir = await folder("providers-anthropic");
  const { store, contexts } = await providerStore(dir, "anthropic");
  try {
    // A Citations API response: document_index 1 is the context's chunk 1 (sent: "chunks").
    const cited = "Emperor penguins only live in Antarctica.";
    const message = {
      id: "msg_01",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [
        {
          type: "text",
          text: "They only live in Antarctica.",
          citations: [
            { type: "char_location", cited_text: cited, document_index: 1, document_title: "penguin-habitats.txt", start_char_index: 0, end_char_index: cited.length },
          ],
        },
      ],
      stop_reason: "end_turn",
    };
    const viaFormat = await store.importResponse("anthropic", contexts.P3, message, { sent: "chunks" });
    assert.equal(viaFormat.alreadyRecorded, false);
    assert.equal(viaFormat.claims[0].evidence[0].verdict, "exact");
    assert.equal(viaFormat.claims[0].evidence[0].location.agreement, "agrees");
    const viaAlias = await store.importAnthropic(contexts.P3, message);
    assert.equal(viaAlias.alreadyRecorded, true);
    assert.deepEqual(ids(viaAlias), ids(viaFormat));
    const bad = await rejection(store.importResponse("anthropic", contexts.P3, message, { sent: "pages" }), BadInput);
    assert.match(bad.message, /^sent: /);
  } finally {
    store.close();
  }
});
