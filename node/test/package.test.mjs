// The package as npm installed it: its ES module and CommonJS entry points are the same
// objects, and its install script fails clearly when it cannot build the addon.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { cp, mkdir, writeFile, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as esm from "citestore";
import { folder } from "./helpers.mjs";

const require = createRequire(import.meta.url);

test("require and import give the same objects", () => {
  const cjs = require("citestore");
  for (const name of ["Store", "Context", "locate", "schema", "citedClaims", "chunksFromText", "CitestoreError", "BadInput", "BadAnswer", "NotFound", "DatabaseError"]) {
    assert.equal(typeof cjs[name], "function", name);
    assert.equal(esm[name], cjs[name], name);
  }
  assert.equal(typeof esm.version, "string");
  const pkg = require("citestore/package.json");
  assert.equal(pkg.name, "citestore");
  assert.ok(pkg.engines.node.includes("20"));
});

/** The install script, copied with what it reads into `root` (as node/ in a clone, or not). */
async function installScript(root, inClone) {
  const pkg = dirname(await realpath(require.resolve("citestore/package.json")));
  const node = join(root, "node");
  await mkdir(join(node, "lib"), { recursive: true });
  await cp(join(pkg, "scripts"), join(node, "scripts"), { recursive: true });
  await cp(join(pkg, "lib", "platform.js"), join(node, "lib", "platform.js"));
  await cp(join(pkg, "package.json"), join(node, "package.json"));
  if (inClone) {
    await cp(join(pkg, "Cargo.toml"), join(node, "Cargo.toml"));
    await writeFile(join(root, "Cargo.toml"), "[workspace]\n");
  }
  return join(node, "scripts", "install.js");
}

test("install: without cargo it fails saying how to get Rust", async () => {
  const root = await folder("nocargo");
  const script = await installScript(root, true);
  const env = { ...process.env, PATH: join(root, "empty-path"), CARGO: "" };
  delete env.CARGO;
  const run = spawnSync(process.execPath, [script], { env, encoding: "utf8" });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /^citestore: building the native addon needs Rust 1\.85 or later with cargo on the PATH \(https:\/\/rustup\.rs/);
});

test("install: outside a clone, with no prebuilt addon, it fails saying where to install from", async () => {
  const root = await folder("noclone");
  const script = await installScript(root, false);
  const run = spawnSync(process.execPath, [script], { encoding: "utf8" });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /no prebuilt native addon for .* in this package, and no source to build one from; install citestore from a clone/);
});
