// Shared by the tests: a fresh folder per test file, and the model responses the tests cite.
// The tests import "citestore" by its name: test/run.sh runs them from a project that
// installed the package with npm, as a user would.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";

/** A new empty folder, removed when the test file ends. */
export async function folder(name) {
  const dir = await mkdtemp(join(tmpdir(), `citestore-node-${name}-`));
  after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** An Anthropic Messages API response whose one tool call is emit_answer with `input`. */
export function anthropicMessage(input) {
  return {
    id: "msg_01XFDUDYJgAACzvnptvVoYEL",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [
      { type: "text", text: "Here is the answer, claim by claim." },
      { type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "emit_answer", input },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 512, output_tokens: 128 },
  };
}

/** An OpenAI Chat Completions response whose one tool call is emit_answer with `input`. */
export function openaiChatCompletion(input) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1767225600,
    model: "gpt-4.1",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "emit_answer", arguments: JSON.stringify(input) } },
          ],
        },
      },
    ],
  };
}

/** Every located evidence of a cite result. */
export function located(result) {
  return result.claims.flatMap((claim) => claim.evidence.filter((ev) => ev.citation !== null));
}

/** `promise`'s rejection, which must be an instance of `Class`. */
export async function rejection(promise, Class) {
  try {
    await promise;
  } catch (err) {
    if (!(err instanceof Class)) throw new Error(`expected a ${Class.name}, got ${err && err.name}: ${err && err.message}`);
    return err;
  }
  throw new Error(`expected a ${Class.name}, but it resolved`);
}

/** What `work()` throws, which must be an instance of `Class`. */
export function thrown(work, Class) {
  try {
    work();
  } catch (err) {
    if (!(err instanceof Class)) throw new Error(`expected a ${Class.name}, got ${err && err.name}: ${err && err.message}`);
    return err;
  }
  throw new Error(`expected a ${Class.name}, but it returned`);
}
