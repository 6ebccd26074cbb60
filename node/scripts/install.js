#!/usr/bin/env node
"use strict";
// npm's `install` script: makes sure the package has its native addon for this platform.
//
// - A prebuilt addon (`citestore.<platform>.node` that this script did not build) is used as
//   it is.
// - Otherwise, in a clone of the citestore repository (node/ inside the Cargo workspace), the
//   addon is built with cargo: the `wheel` profile by default (release code, no debug info,
//   stripped, as the Python wheel is built), a debug build with CITESTORE_NODE_DEBUG=1 (faster
//   to build, for tests). An addon this script built before is built again (cargo does nothing
//   when the sources have not changed), so a pulled change is never left out.
// - Without cargo, or outside a clone with no prebuilt addon, it fails saying what to do.
//
// CARGO names the cargo to run (default: `cargo` on the PATH).

const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");
const { platformName } = require("../lib/platform");

const root = path.join(__dirname, "..");
const addon = path.join(root, `citestore.${platformName()}.node`);
const stamp = path.join(root, ".built-from-source");
const manifest = path.join(root, "Cargo.toml");
const workspace = path.join(root, "..", "Cargo.toml");

const RUST =
  "Rust 1.85 or later with cargo on the PATH (https://rustup.rs: " +
  "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh), or CARGO set to a cargo";

function fail(message) {
  process.stderr.write(`citestore: ${message}\n`);
  process.exit(1);
}

function truthy(value) {
  return ["1", "true", "yes", "on"].includes(String(value || "").toLowerCase());
}

function main() {
  const built = fs.existsSync(stamp);
  if (fs.existsSync(addon) && !built) {
    console.log(`citestore: using the prebuilt native addon ${path.basename(addon)}`);
    return;
  }
  if (!fs.existsSync(manifest) || !fs.existsSync(workspace)) {
    fail(
      `no prebuilt native addon for ${platformName()} in this package, and no source to build ` +
        `one from; install citestore from a clone of its repository ` +
        `(npm install PATH/TO/citestore/node), which builds it with cargo`,
    );
  }
  const cargo = process.env.CARGO || "cargo";
  const version = spawnSync(cargo, ["--version"], { encoding: "utf8" });
  if (version.error || version.status !== 0) {
    if (fs.existsSync(addon)) {
      process.stderr.write(
        `citestore: cargo not found (${cargo}); keeping the native addon built before, which ` +
          `may be older than these sources\n`,
      );
      return;
    }
    fail(`building the native addon needs ${RUST}; \`${cargo} --version\` failed`);
  }
  const debug = truthy(process.env.CITESTORE_NODE_DEBUG);
  const args = ["build", "--manifest-path", manifest, "-p", "citestore-node", "--message-format=json-render-diagnostics"];
  if (!debug) args.push("--profile", "wheel");
  console.log(`citestore: building the native addon with ${version.stdout.trim()} (${debug ? "debug" : "release"})`);
  const build = spawnSync(cargo, args, {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (build.error || build.status !== 0) {
    fail(
      `\`${cargo} ${args.join(" ")}\` failed${build.error ? ` (${build.error.message})` : ""}; ` +
        `the messages above say why (citestore needs ${RUST})`,
    );
  }
  let library = null;
  for (const line of build.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const message = JSON.parse(line);
    if (message.reason === "compiler-artifact" && message.target && message.target.name === "citestore_node") {
      library = message.filenames.find((f) => /\.(so|dylib|dll)$/.test(f)) ?? library;
    }
  }
  if (!library) fail("cargo built citestore-node but named no library file; run `npm run build` in node/");
  // Copied to a new file, then renamed: a running process keeps the old one mapped intact.
  const partial = `${addon}.partial`;
  fs.copyFileSync(library, partial);
  fs.renameSync(partial, addon);
  fs.writeFileSync(stamp, `${library}\n`);
  console.log(`citestore: built ${path.basename(addon)}`);
}

main();
