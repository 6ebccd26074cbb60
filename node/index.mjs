// citestore for Node.js, as an ES module: the CommonJS entry point's objects (one copy of each
// class, so `instanceof` holds whichever way the package is loaded).
import citestore from "./index.js";

export const {
  Store,
  Context,
  locate,
  schema,
  citedClaims,
  chunksFromText,
  CitestoreError,
  BadInput,
  BadAnswer,
  NotFound,
  UnknownContext,
  UnknownDocument,
  UnknownChunk,
  DatabaseError,
  SweepIncomplete,
  TextUnavailable,
  version,
} = citestore;
