"use strict";
// citestore for Node.js: keep the citations of a RAG system true over time. The CommonJS entry
// point; index.mjs is the ES module one (the same objects). Offsets everywhere are JavaScript
// string indices (UTF-16 code units): `text.slice(start, end)` is the cited text.

const { Store, Context, locate, schema, citedClaims, chunksFromText } = require("./lib/store");
const errors = require("./lib/errors");
const { native } = require("./lib/native");

module.exports = {
  Store,
  Context,
  locate,
  schema,
  citedClaims,
  chunksFromText,
  CitestoreError: errors.CitestoreError,
  BadInput: errors.BadInput,
  BadAnswer: errors.BadAnswer,
  NotFound: errors.NotFound,
  UnknownContext: errors.UnknownContext,
  UnknownDocument: errors.UnknownDocument,
  UnknownChunk: errors.UnknownChunk,
  DatabaseError: errors.DatabaseError,
  SweepIncomplete: errors.SweepIncomplete,
  TextUnavailable: errors.TextUnavailable,
  version: native.libraryVersion(),
};
