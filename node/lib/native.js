"use strict";
// Loads the native addon built for this platform: `citestore.<platform>.node` in the package's
// folder (built by its install script from a clone, or shipped prebuilt), or the file
// CITESTORE_NODE_ADDON names.

const path = require("node:path");
const fs = require("node:fs");
const { platformName } = require("./platform");

function addonPath() {
  return process.env.CITESTORE_NODE_ADDON || path.join(__dirname, "..", `citestore.${platformName()}.node`);
}

function load() {
  const file = addonPath();
  if (!fs.existsSync(file)) {
    throw new Error(
      `citestore: no native addon at ${file}; it is built when the package is installed from ` +
        `a clone of the citestore repository (npm install PATH/TO/citestore/node, which needs ` +
        `Rust 1.85+ with cargo on the PATH), or by \`npm run build\` in its node/ folder`,
    );
  }
  // dlopen, not require: a file CITESTORE_NODE_ADDON names may not end in `.node`
  // (cargo's `libcitestore_node.so`).
  const addon = { exports: {} };
  process.dlopen(addon, file);
  return addon.exports;
}

module.exports = { native: load(), addonPath };
