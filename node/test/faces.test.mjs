// The three faces agree: the same answer cited from the CLI, from Python and from this package
// gives the same context id and the same citation ids. The bundled example (fixtures/cite: the
// rate card and the plan comparison, chunker paragraph:150, a context of both documents, the
// answer a model gave), each face on a store of its own, under the same fixed clock. And the
// same for provider responses (fixtures/providers: `import FORMAT`, `import_response`,
// `importResponse`).
//
// The CLI is target/debug/citestore (CITESTORE_BIN overrides), Python the test venv's
// target/pyenv/bin/python (CITESTORE_PYTHON overrides) with the citestore package; either one
// missing is a failure, never a skip. The repository is found through the installed package
// (npm installs node/ as a link to it); CITESTORE_ROOT overrides.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Store } from "citestore";
import { folder } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const NOW = "2026-01-02T03:04:05Z";
const ROOT = process.env.CITESTORE_ROOT || dirname(dirname(realpathSync(require.resolve("citestore/package.json"))));
const DOCS = join(ROOT, "fixtures", "cite", "docs");
const ANSWER = join(ROOT, "fixtures", "cite", "answer.json");
const CHUNKER = "paragraph:150";
const CONTEXT_DOCS = ["rate-card.md", "plans.md"];

// The README's trace: one list per claim, one entry per evidence (null: not located).
const README_IDS = [
  ["c-221cc4b4ae2a"], // exact
  ["c-22e7f97c762d"], // fuzzy
  ["c-a29683dbfb0b"], // review
  [null], // fabricated
  ["c-5db959fd9b5f"], // repaired
  [null], // ambiguous
  [], // uncited
  [null], // unknown-chunk
];

function need(path, what) {
  if (!existsSync(path)) assert.fail(`${path}: ${what} is missing`);
  return path;
}

function run(command, args, cwd) {
  const env = { ...process.env, CITESTORE_NOW: NOW };
  delete env.CITESTORE_DB;
  const out = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (out.error) throw out.error;
  if (out.status !== 0) assert.fail(`${command} ${args.join(" ")}: exit ${out.status}: ${out.stderr}`);
  return out.stdout;
}

/** `[contextId, citation ids per claim]` from a cite result's claims. */
function ids(context, claims) {
  return [context, claims.map((claim) => claim.evidence.map((ev) => ev.citation))];
}

async function cli(dir) {
  const bin = need(process.env.CITESTORE_BIN || join(ROOT, "target", "debug", "citestore"), "the citestore binary (`cargo build`)");
  const db = join(dir, "cli.db");
  run(bin, ["--db", db, "ingest", DOCS, "--chunker", CHUNKER], dir);
  const ctx = JSON.parse(run(bin, ["--db", db, "context", ...CONTEXT_DOCS.flatMap((d) => ["--doc", d]), "--json"], dir));
  const cited = JSON.parse(run(bin, ["--db", db, "cite", "--context", ctx.context, ANSWER, "--json"], dir));
  assert.equal(cited.context, ctx.context);
  return ids(ctx.context, cited.claims);
}

const PYTHON = `
import json, sys
import citestore
db, docs, answer, chunker = sys.argv[1:5]
store = citestore.Store(db)
store.ingest(docs, chunker=chunker)
ctx = store.context(docs=json.loads(sys.argv[5]))
with open(answer, encoding="utf-8") as f:
    result = store.cite(ctx, json.load(f))
assert result.context == ctx.id
print(json.dumps([ctx.id, [[ev["citation"] for ev in claim["evidence"]] for claim in result.claims]]))
`;

async function python(dir) {
  const python = need(process.env.CITESTORE_PYTHON || join(ROOT, "target", "pyenv", "bin", "python"), "the test venv's Python (target/pyenv)");
  const args = ["-c", PYTHON, join(dir, "py.db"), DOCS, ANSWER, CHUNKER, JSON.stringify(CONTEXT_DOCS)];
  return JSON.parse(run(python, args, dir));
}

async function typescript(dir) {
  const saved = process.env.CITESTORE_NOW;
  process.env.CITESTORE_NOW = NOW;
  try {
    const store = await Store.open(join(dir, "node.db"));
    await store.ingest(DOCS, { chunker: CHUNKER });
    const ctx = await store.context({ docs: CONTEXT_DOCS });
    const cited = await store.cite(ctx, JSON.parse(await readFile(ANSWER, "utf8")));
    assert.equal(cited.context, ctx.id);
    store.close();
    return ids(ctx.id, cited.claims);
  } finally {
    if (saved === undefined) delete process.env.CITESTORE_NOW;
    else process.env.CITESTORE_NOW = saved;
  }
}

test("the same answer cited from the CLI, Python and TypeScript gives the same citation ids", async () => {
  const dir = await folder("faces");
  const fromCli = await cli(dir);
  const fromPython = await python(dir);
  const fromNode = await typescript(dir);

  assert.match(fromCli[0], /^ctx-[0-9a-f]{12}$/);
  assert.equal(fromPython[0], fromCli[0], "Python's context id is the CLI's");
  assert.equal(fromNode[0], fromCli[0], "TypeScript's context id is the CLI's");
  assert.deepEqual(fromPython[1], fromCli[1], "Python's citation ids are the CLI's");
  assert.deepEqual(fromNode[1], fromCli[1], "TypeScript's citation ids are the CLI's");
  // And they are the ones the README shows.
  assert.equal(fromCli[0], "ctx-504cd163e2ad");
  assert.deepEqual(fromCli[1], README_IDS);
});

// Provider responses: fixtures/providers/docs ingested with paragraph:2000 (one chunk per
// document), a context of the README's documents, then the response imported.
const PROVIDERS = join(ROOT, "fixtures", "providers");
const PROVIDER_CASES = [
  // Emoji in the answer (UTF-16 offsets), a review, a located quote, a URL source.
  { format: "ai-sdk", file: "generate-text.json", docs: ["tall-penguins.txt", "penguin-habitats.txt", "animals.txt"] },
  // Non-ASCII answer (UTF-8 byte offsets), located quotes and a review.
  { format: "gemini", file: "retrieval-multilingual.json", docs: ["kaiserpinguin.txt", "kotei-pengin.txt"] },
  // No quotes at all: every evidence a review with a proposal.
  { format: "cohere", file: "docs-auto-ids.json", docs: ["tall-penguins.txt", "penguin-habitats.txt", "animals.txt"] },
];

function importCli(dir, { format, file, docs }) {
  const bin = need(process.env.CITESTORE_BIN || join(ROOT, "target", "debug", "citestore"), "the citestore binary (`cargo build`)");
  const db = join(dir, `cli-${format}.db`);
  run(bin, ["--db", db, "ingest", join(PROVIDERS, "docs"), "--chunker", "paragraph:2000"], dir);
  const ctx = JSON.parse(run(bin, ["--db", db, "context", ...docs.flatMap((d) => ["--doc", d]), "--json"], dir));
  const response = join(PROVIDERS, format, file);
  const imported = JSON.parse(run(bin, ["--db", db, "import", format, response, "--context", ctx.context, "--json"], dir));
  assert.equal(imported.context, ctx.context);
  return ids(ctx.context, imported.claims);
}

const PYTHON_IMPORT = `
import json, sys
import citestore
db, docs, fmt, response = sys.argv[1:5]
store = citestore.Store(db)
store.ingest(docs, chunker="paragraph:2000")
ctx = store.context(docs=json.loads(sys.argv[5]))
with open(response, encoding="utf-8") as f:
    result = store.import_response(fmt, ctx, json.load(f))
assert result.context == ctx.id
print(json.dumps([ctx.id, [[ev["citation"] for ev in claim["evidence"]] for claim in result.claims]]))
`;

function importPython(dir, { format, file, docs }) {
  const python = need(process.env.CITESTORE_PYTHON || join(ROOT, "target", "pyenv", "bin", "python"), "the test venv's Python (target/pyenv)");
  const args = ["-c", PYTHON_IMPORT, join(dir, `py-${format}.db`), join(PROVIDERS, "docs"), format, join(PROVIDERS, format, file), JSON.stringify(docs)];
  return JSON.parse(run(python, args, dir));
}

async function importTypescript(dir, { format, file, docs }) {
  const saved = process.env.CITESTORE_NOW;
  process.env.CITESTORE_NOW = NOW;
  try {
    const store = await Store.open(join(dir, `node-${format}.db`));
    await store.ingest(join(PROVIDERS, "docs"), { chunker: "paragraph:2000" });
    const ctx = await store.context({ docs });
    const imported = await store.importResponse(format, ctx, JSON.parse(await readFile(join(PROVIDERS, format, file), "utf8")));
    assert.equal(imported.context, ctx.id);
    store.close();
    return ids(ctx.id, imported.claims);
  } finally {
    if (saved === undefined) delete process.env.CITESTORE_NOW;
    else process.env.CITESTORE_NOW = saved;
  }
}

test("the same provider response imported from the CLI, Python and TypeScript gives the same citation ids", async (t) => {
  const dir = await folder("faces-providers");
  for (const one of PROVIDER_CASES) {
    await t.test(`${one.format}/${one.file}`, async () => {
      const fromCli = importCli(dir, one);
      const fromPython = importPython(dir, one);
      const fromNode = await importTypescript(dir, one);
      assert.match(fromCli[0], /^ctx-[0-9a-f]{12}$/);
      const stored = fromCli[1].flat();
      assert.ok(stored.length > 0 && stored.every((id) => /^c-[0-9a-f]{12}$/.test(id)), `${one.format}: citations stored`);
      assert.equal(fromPython[0], fromCli[0], "Python's context id is the CLI's");
      assert.equal(fromNode[0], fromCli[0], "TypeScript's context id is the CLI's");
      assert.deepEqual(fromPython[1], fromCli[1], "Python's citation ids are the CLI's");
      assert.deepEqual(fromNode[1], fromCli[1], "TypeScript's citation ids are the CLI's");
    });
  }
});
