// A shared store on PostgreSQL: Store.open takes its URL, and everything works as on SQLite.
// CITESTORE_TEST_PG is a server's database URL (test/run.sh starts a throwaway cluster with
// tests/pg-cluster.sh when it is not set); the test makes a fresh database of its own there.
// Unset under CI=true is a failure; elsewhere the test says it did not run.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { Store, chunksFromText, citedClaims, DatabaseError } from "citestore";
import { anthropicMessage, rejection } from "./helpers.mjs";

const server = process.env.CITESTORE_TEST_PG || "";

/** psql: on the PATH, or Debian's. */
function psql() {
  for (const dir of (process.env.PATH || "").split(":")) {
    if (dir && existsSync(`${dir}/psql`)) return `${dir}/psql`;
  }
  const debian = "/usr/lib/postgresql";
  for (const version of existsSync(debian) ? readdirSync(debian) : []) {
    if (existsSync(`${debian}/${version}/bin/psql`)) return `${debian}/${version}/bin/psql`;
  }
  throw new Error("psql not found: install PostgreSQL's client");
}

/** `base` with its database name replaced by `name`. */
function withDatabase(base, name) {
  const [scheme, rest] = base.split("://");
  const slash = rest.indexOf("/");
  const query = rest.indexOf("?", slash);
  return `${scheme}://${rest.slice(0, slash)}/${name}${query < 0 ? "" : rest.slice(query)}`;
}

test("a store on PostgreSQL", { skip: !server && process.env.CI !== "true" && "CITESTORE_TEST_PG is not set; this PostgreSQL test did not run" }, async () => {
  assert.ok(server, "CITESTORE_TEST_PG is not set under CI=true: run node/test/run.sh, which starts a PostgreSQL cluster");
  const name = `node_${process.pid}_${Date.now()}`;
  execFileSync(psql(), [server, "-qc", `CREATE DATABASE ${name}`]);
  const url = withDatabase(server, name);

  const store = await Store.open(url);
  const v1 = "Intro \u{1F600} line.\n\nThe rate is \u{1F642} $5 per call.";
  const v1Pieces = ["Intro \u{1F600} line.", "The rate is \u{1F642} $5 per call."];
  await store.ingestText("rates.md", v1, { chunks: chunksFromText(v1, v1Pieces).map((c, i) => ({ ...c, id: `v${i}` })) });
  const ctx = await store.context({ chunks: ["v1"] });
  const result = await store.cite(ctx, anthropicMessage({ claims: [{ text: "$5 a call", evidence: [{ chunk_id: ctx.chunks[0].label, quote: "$5 per call" }] }] }));
  const [claim] = citedClaims(result);
  assert.equal(v1.slice(claim.sources[0].start, claim.sources[0].end), "$5 per call");

  const v2 = "\u{1F195} New.\n\n" + v1;
  await store.ingestText("rates.md", v2, { chunker: "paragraph:30" });
  const summary = await store.sweep();
  assert.deepEqual(summary.status, { moved: 1 });
  const [line] = await store.export();
  assert.equal(v2.slice(line.current.start, line.current.end), "$5 per call");

  // Another Store, read-only, on the same database: the text comes back from the chunks.
  const reader = await Store.open(url, { readOnly: true });
  assert.deepEqual((await reader.health()).status, { moved: 1 });
  const [annotation] = await reader.export({ format: "w3c" });
  const position = annotation.target.selector.find((s) => s.type === "TextPositionSelector");
  assert.equal(v2.slice(position.start, position.end), "$5 per call");
  const err = await rejection(reader.sweep(), DatabaseError);
  assert.equal(err.code, "READ_ONLY_STORE");
  assert.ok(!err.message.includes("password"));
});
