"use strict";
// The texts offsets index, for turning the store's code point offsets into string indices.
//
// A revision's index comes from (first that knows enough):
// 1. the text given to `ingestText` (or extracted for `ingest` with your chunks) by this
//    Store, remembered as its index when your chunks leave gaps (a chunker's chunks tile the
//    text, so their revision needs nothing remembered);
// 2. the revision's current chunks (`chunks` use case), which hold the text they cover;
// 3. the `texts` function given to `Store.open`, asked for the revision's text;
// 4. the revision's whole text, read from the store (`revisionText`), when none of the above
//    covers the offset (your chunks with gaps, ingested by another process).
// Revision texts never change, so indexes are kept (the last 256, and every remembered one).

const { TextIndex } = require("./offsets");
const { BadInput } = require("./errors");

const KEPT = 256;

function key(docId, revision) {
  return `${revision}\u0000${docId}`;
}

function label(docId, revision) {
  return `document ${JSON.stringify(docId)} revision ${revision}`;
}

class RevisionTexts {
  /**
   * @param {(docId: string, revision: number | null) => Promise<any>} readChunks the `chunks`
   *   use case's result (snake_case, code points)
   * @param {((docId: string, revision: number) => unknown) | undefined} given the `texts` option
   */
  constructor(readChunks, given, readText) {
    this.readChunks = readChunks;
    this.given = given;
    this.readText = readText;
    this.pinned = new Map();
    this.recent = new Map();
    this.ingesting = new Map();
  }

  /**
   * `done` settles when an ingest of `docId` by this Store has remembered its text: an index
   * of that document asked for meanwhile waits for it.
   */
  ingest(docId, done) {
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.ingesting.set(docId, settled);
    settled.then(() => {
      if (this.ingesting.get(docId) === settled) this.ingesting.delete(docId);
    });
  }

  /**
   * Keeps the index of revision `revision` of `docId`; `pinned` when its chunks do not cover
   * its text (your chunks with gaps, or none), so that it is never dropped.
   */
  remember(docId, revision, index, pinned) {
    const k = key(docId, revision);
    if (pinned) this.pinned.set(k, index);
    else this.keep(k, index);
  }

  keep(k, index) {
    this.recent.delete(k);
    this.recent.set(k, index);
    if (this.recent.size > KEPT) this.recent.delete(this.recent.keys().next().value);
  }

  /**
   * The index of a revision, known at least up to code point `needed` when it can be; else as
   * far as it is known (converting an offset past that throws TextUnavailable).
   */
  async index(docId, revision, needed, chunks) {
    const pending = this.ingesting.get(docId);
    if (pending) await pending;
    const k = key(docId, revision);
    let index = this.pinned.get(k) ?? this.recent.get(k);
    if (!index) {
      const raw = chunks ?? (await this.readChunks(docId, revision)).chunks;
      index = TextIndex.fromChunks(raw, label(docId, revision));
      this.keep(k, index);
    }
    if (index.covers(needed)) return index;
    let text = this.given ? await this.given(docId, revision) : undefined;
    if (text === undefined || text === null) {
      text = await this.readText(docId, revision);
    }
    if (typeof text !== "string") {
      throw new BadInput(
        `texts(${JSON.stringify(docId)}, ${revision}) returned a ${typeof text}; return ` +
          `the revision's text as a string, or undefined when you do not have it`,
      );
    }
    index = TextIndex.of(text, label(docId, revision));
    this.pinned.set(k, index);
    return index;
  }
}

/**
 * Offsets to convert, collected from one result, then converted together: each revision's
 * index is read once however many spans index it.
 */
class Spans {
  constructor(texts) {
    this.texts = texts;
    this.items = [];
    this.chunks = new Map();
  }

  /** `object[field]` (each of `fields`) is a code point offset into `docId`'s `revision`. */
  add(object, docId, revision, ...fields) {
    if (object === null || object === undefined || revision === null || revision === undefined) {
      return;
    }
    this.items.push({ object, docId, revision, fields });
  }

  /** A revision's chunks already read (so its index is not read again). */
  withChunks(docId, revision, chunks) {
    this.chunks.set(key(docId, revision), chunks);
  }

  /** Rewrites every offset added as a string index. */
  async convert() {
    const wanted = new Map();
    for (const { object, docId, revision, fields } of this.items) {
      const k = key(docId, revision);
      const most = Math.max(0, ...fields.map((f) => (typeof object[f] === "number" ? object[f] : 0)));
      const seen = wanted.get(k);
      if (seen) seen.needed = Math.max(seen.needed, most);
      else wanted.set(k, { docId, revision, needed: most });
    }
    const indexes = new Map();
    await Promise.all(
      [...wanted].map(async ([k, { docId, revision, needed }]) => {
        indexes.set(k, await this.texts.index(docId, revision, needed, this.chunks.get(k)));
      }),
    );
    for (const { object, docId, revision, fields } of this.items) {
      const index = indexes.get(key(docId, revision));
      for (const field of fields) {
        if (typeof object[field] === "number") object[field] = index.toUtf16(object[field]);
      }
    }
  }
}

module.exports = { RevisionTexts, Spans };
