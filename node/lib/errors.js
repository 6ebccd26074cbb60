"use strict";
// The errors citestore throws. Every one's message is the one line the command-line tool
// prints after `citestore:` for the same problem, in JavaScript's words (option and method
// names, not CLI flags), naming the input and saying what to do. `code` is stable: the
// library error's kind (`UNKNOWN_CHUNK`, `BAD_CHUNKS`, `NO_DATABASE`, ...) or this package's
// own (`BAD_INPUT`, `STORE_CLOSED`, `TEXT_UNAVAILABLE`, `SWEEP_INCOMPLETE`, `INTERNAL`).

class CitestoreError extends Error {
  /**
   * @param {string} message
   * @param {string} [code]
   */
  constructor(message, code) {
    super(message);
    this.name = new.target.name;
    this.code = code ?? "CITESTORE_ERROR";
  }
}

/** Input citestore refuses, with nothing stored. */
class BadInput extends CitestoreError {
  constructor(message, code) {
    super(message, code ?? "BAD_INPUT");
  }
}

/** A model's answer that does not fit the emit_answer schema, or a provider response that does not fit its shape (the message names the JSON path). */
class BadAnswer extends BadInput {
  constructor(message, code) {
    super(message, code ?? "BAD_ANSWER");
  }
}

/** Something asked for by id that the store does not hold. */
class NotFound extends CitestoreError {
  constructor(message, code) {
    super(message, code ?? "NOT_FOUND");
  }
}

class UnknownContext extends NotFound {
  constructor(message, code) {
    super(message, code ?? "UNKNOWN_CONTEXT");
  }
}

class UnknownDocument extends NotFound {
  constructor(message, code) {
    super(message, code ?? "UNKNOWN_DOCUMENT");
  }
}

class UnknownChunk extends NotFound {
  constructor(message, code) {
    super(message, code ?? "UNKNOWN_CHUNK");
  }
}

/** The database cannot be used (not SQLite, another program's, too new, read-only, busy). */
class DatabaseError extends CitestoreError {
  constructor(message, code) {
    super(message, code ?? "DATABASE");
  }
}

/** A sweep ran but some documents could not be swept; `summary` says which and why. */
class SweepIncomplete extends CitestoreError {
  constructor(message, summary) {
    super(message, "SWEEP_INCOMPLETE");
    this.summary = summary;
  }
}

/**
 * An offset that cannot be given as a JavaScript string index: the text before it is not
 * known here (a document of your own chunks, with gaps between them, ingested elsewhere).
 */
class TextUnavailable extends CitestoreError {
  constructor(message, code) {
    super(message, code ?? "TEXT_UNAVAILABLE");
  }
}

const CLASSES = {
  CitestoreError,
  BadInput,
  BadAnswer,
  NotFound,
  UnknownContext,
  UnknownDocument,
  UnknownChunk,
  DatabaseError,
};

/**
 * The error to throw for a rejection of the native addon: its message is `{"class", "code",
 * "message"}` as JSON. Anything else (an addon bug, a wrong argument type caught by napi) is a
 * CitestoreError with code INTERNAL, or BadInput for napi's argument checks.
 */
function fromNative(err) {
  const text = err && typeof err.message === "string" ? err.message : String(err);
  if (text.startsWith('{"class":')) {
    try {
      const { class: name, code, message } = JSON.parse(text);
      const Class = CLASSES[name] ?? CitestoreError;
      return new Class(message, code);
    } catch {
      // Not ours after all: fall through.
    }
  }
  if (err && (err.code === "InvalidArg" || err.code === "NumberExpected" || err.code === "StringExpected")) {
    return new BadInput(text);
  }
  return new CitestoreError(text, "INTERNAL");
}

module.exports = {
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
  fromNative,
};
