// locate: synchronous, offsets (and `near`) in string indices of the chunk given.

import { test } from "node:test";
import assert from "node:assert/strict";
import { locate, BadInput } from "citestore";
import { thrown } from "./helpers.mjs";

test("locate is synchronous and returns string indices", () => {
  const chunk = "\u{1F600} Growth \u2014 included 500,000 calls / mo; overage $0.12 per 1,000 calls";
  const found = locate(chunk, "overage $0.12 per 1,000 calls");
  assert.ok(!(found instanceof Promise));
  assert.equal(found.how, "exact");
  assert.equal(found.score, 100);
  assert.equal(found.occurrences, 1);
  assert.equal(chunk.slice(found.start, found.end), "overage $0.12 per 1,000 calls");
  assert.equal(found.text, "overage $0.12 per 1,000 calls");

  // Not verbatim: the emoji before it is two string indices, one code point.
  const review = locate(chunk, "growth \u2013 included 500,000 calls/mo");
  assert.deepEqual(review, {
    start: 3,
    end: 39,
    how: "review",
    occurrences: 0,
    reason: "score 94.1 below accept 95",
    score: review.score,
    text: "Growth \u2014 included 500,000 calls / mo",
  });
  assert.equal(chunk.slice(review.start, review.end), review.text);
  const fuzzy = locate(chunk.slice(3), "growth \u2013 included 500,000 calls/mo");
  assert.equal(fuzzy.how, "fuzzy");
  assert.equal(fuzzy.start, 0);

  assert.equal(locate(chunk, "an invented sentence about refunds"), null);
});

test("locate: prefix, suffix and near choose among occurrences", () => {
  const chunk = "\u{1F4A1} Plan A: $5 per call. \u{1F4A1} Plan B: $5 per call. \u{1F4A1} Plan C: $5 per call.";
  const plain = locate(chunk, "$5 per call");
  assert.equal(plain.occurrences, 3);
  const second = chunk.indexOf("$5", chunk.indexOf("Plan B"));
  const byNear = locate(chunk, "$5 per call", { near: second });
  assert.equal(byNear.start, second);
  assert.equal(byNear.hints.chosen, 2);
  assert.equal(byNear.hints.candidates, 3);
  const byPrefix = locate(chunk, "$5 per call", { prefix: "Plan C: " });
  assert.equal(chunk.slice(byPrefix.start - "Plan C: ".length, byPrefix.end), "Plan C: $5 per call");
});

test("locate refuses what it cannot use", () => {
  let err = thrown(() => locate("some text", "   "), BadInput);
  assert.equal(err.code, "BAD_INPUT");
  assert.equal(err.message, "the quote is empty or has no visible characters: pass the words the model quoted");
  err = thrown(() => locate("some text", "text", { accept: 80, review: 90 }), BadInput);
  assert.match(err.message, /give scores from 0 to 100 with review <= accept$/);
  err = thrown(() => locate("some text", "text", { near: -1 }), BadInput);
  assert.equal(err.message, "near: -1: give a whole number, 0 or more");
});
