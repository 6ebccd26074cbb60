"use strict";
// The one place the library's snake_case JSON keys become JavaScript's camelCase: every
// result goes through `camelKeys` right after it is parsed. Values are never touched, and two
// subtrees keep their keys: `api` (an API's own citation object, as the API sent it) and
// `tables` (table names, which are data).

const KEEP = new Set(["api", "tables"]);

/** `content_hash` → `contentHash`; a key without `_` is returned as it is. */
function camel(key) {
  return key.includes("_") ? key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()) : key;
}

/** `value` with every object key camelCased, recursively (see the module comment). */
function camelKeys(value) {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== "object") return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    out[camel(key)] = KEEP.has(key) ? item : camelKeys(item);
  }
  return out;
}

module.exports = { camelKeys, camel };
