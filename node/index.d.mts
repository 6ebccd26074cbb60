// The ES module entry point's types: the same as the CommonJS one's (index.mjs re-exports
// index.js's objects).
export * from "./index.js";
