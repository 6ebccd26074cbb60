"use strict";
// The Store: each method is the use case of the CLI command of the same name, run by the
// native addon off the event loop. This layer checks and converts at its edge, and nothing
// else: options in, then the result's keys (camelCase, `./keys`) and offsets (string indices,
// `./offsets` through `./texts`) out.

const { native } = require("./native");
const { camelKeys } = require("./keys");
const { TextIndex } = require("./offsets");
const { RevisionTexts, Spans } = require("./texts");
const {
  CitestoreError,
  BadInput,
  BadAnswer,
  SweepIncomplete,
  fromNative,
} = require("./errors");

const STATUSES = ["intact", "moved", "degraded", "lost"];
const OPENING = Symbol("citestore.Store.open");

/** The native call's JSON result, parsed; its rejection as citestore's error. */
async function call(promise) {
  let text;
  try {
    text = await promise;
  } catch (err) {
    throw fromNative(err);
  }
  return JSON.parse(text);
}

/** A synchronous native call's JSON result, parsed. */
function callSync(work) {
  let text;
  try {
    text = work();
  } catch (err) {
    throw fromNative(err);
  }
  return text === null ? null : JSON.parse(text);
}

function options(given, name) {
  if (given === undefined || given === null) return {};
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new BadInput(`${name}: give an options object, not a ${kind(given)}`);
  }
  return given;
}

function kind(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function text(value, name) {
  if (typeof value !== "string") throw new BadInput(`${name}: give a string, not a ${kind(value)}`);
  return value;
}

function optionalText(value, name) {
  return value === undefined || value === null ? null : text(value, name);
}

/** One string or an array of strings as an array (a lone string is one item). */
function strings(value, name) {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [value];
  if (!Array.isArray(value)) throw new BadInput(`${name}: give an array of strings, not a ${kind(value)}`);
  value.forEach((item, i) => text(item, `${name}[${i}]`));
  return value;
}

function statuses(value) {
  const given = strings(value, "status");
  for (const status of given) {
    if (!STATUSES.includes(status)) {
      throw new BadInput(`status: ${JSON.stringify(status)} is not a status; give one of ${STATUSES.join(", ")}`);
    }
  }
  return given;
}

function whole(value, name, least) {
  if (!Number.isInteger(value) || value < least) {
    throw new BadInput(`${name}: ${String(value)}: give a whole number, ${least} or more`);
  }
  return value;
}

function seconds(value, name) {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !(value > 0)) {
    throw new BadInput(`${name}: ${String(value)}: give seconds, more than 0`);
  }
  return value;
}

/** `[extractCmd, extractVersion]`, both or neither. */
function extractPair(opts) {
  const cmd = optionalText(opts.extractCmd, "extractCmd");
  const version = optionalText(opts.extractVersion, "extractVersion");
  if ((cmd === null) !== (version === null)) {
    throw new BadInput("extractCmd and extractVersion go together: give both or neither");
  }
  return cmd === null ? null : [cmd, version];
}

/**
 * An answer or response as JSON text: a string is JSON text already, a Uint8Array its UTF-8;
 * anything else (the tool input object, an SDK's response or message, an AI SDK tool call or
 * result) is serialised as `JSON.stringify` writes it, and the library finds the answer inside.
 */
function answerText(value, name) {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  if (value === undefined) throw new BadAnswer(`${name}: undefined; pass the model's tool call input or response`);
  let json;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    throw new BadAnswer(`${name}: not JSON data (${err.message}); pass the tool call's input as a plain object`);
  }
  if (json === undefined) throw new BadAnswer(`${name}: a ${kind(value)} is not JSON data; pass the tool call's input`);
  return json;
}

/**
 * Caller chunks (string indices into `index`'s text) as the JSON the addon takes (code
 * points). Offsets are checked here, in string indices, with the text at hand; ids and the
 * rest by the library.
 */
function chunksJson(chunks, source, index) {
  if (!Array.isArray(chunks)) throw new BadInput(`chunks: give an array of { start, end, id? } objects, not a ${kind(chunks)}`);
  const out = chunks.map((chunk, i) => {
    const name = `chunks[${i}]`;
    if (chunk === null || typeof chunk !== "object") {
      throw new BadInput(`${name}: a ${kind(chunk)}; each chunk is { start, end, id?, text? }`);
    }
    const { start, end } = chunk;
    for (const [field, value] of [["start", start], ["end", end]]) {
      if (!Number.isInteger(value) || value < 0) {
        throw new BadInput(`${name}.${field}: ${String(value)}: give a string index, a whole number 0 or more`);
      }
    }
    if (start >= end) {
      throw new BadInput(`${name}: start ${start} is not before end ${end}; a chunk is [start, end) in string indices, start < end`);
    }
    if (end > source.length) {
      throw new BadInput(`${name}: [${start}, ${end}) runs past the end of the text (${source.length} string indices)`);
    }
    if (chunk.text !== undefined && chunk.text !== null) {
      if (typeof chunk.text !== "string") throw new BadInput(`${name}.text: give a string, not a ${kind(chunk.text)}`);
      if (source.slice(start, end) !== chunk.text) {
        throw new BadInput(`${name}: its text differs from the text at [${start}, ${end}); offsets are JavaScript string indices (text.slice(start, end) must be the chunk's text)`);
      }
    }
    const made = { start: index.toCodePoint(start, `${name}.start`), end: index.toCodePoint(end, `${name}.end`) };
    if (chunk.id !== undefined && chunk.id !== null) made.id = text(chunk.id, `${name}.id`);
    if (typeof chunk.text === "string") made.text = chunk.text;
    return made;
  });
  // Whether the chunks leave gaps (then the text is remembered: they cannot rebuild it).
  const sorted = [...out].sort((a, b) => a.start - b.start);
  let covered = 0;
  for (const c of sorted) {
    if (c.start > covered) break;
    covered = Math.max(covered, c.end);
  }
  return { json: JSON.stringify(out), gapped: covered < index.known };
}

/** `{doc_id}@r{seq}#{start}-{end}`: citestore's chunk ids name their document and revision. */
function chunkIdParts(chunkId) {
  const m = /^([\s\S]*)@r(\d+)#(\d+)-(\d+)$/.exec(chunkId);
  return m ? { docId: m[1], revision: Number(m[2]) } : null;
}

/**
 * A recorded retrieval context: the chunks the model is shown, each under a short opaque
 * label it cites by.
 */
class Context {
  constructor(id, chunks, prompt) {
    this.id = id;
    this.chunks = chunks;
    Object.defineProperty(this, "_prompt", { value: prompt, enumerable: false });
    Object.freeze(this);
  }

  /** The labelled context block for the model (`<chunk label="…">…</chunk>`, the texts as stored). */
  prompt() {
    return this._prompt;
  }

  /** `{ context, chunks }`, as `citestore context --json` prints it (camelCase keys). */
  toJSON() {
    return { context: this.id, chunks: this.chunks };
  }
}

class Store {
  #native;
  #texts;
  #closed = false;

  /** Use `Store.open(location, options)`. */
  constructor(token, nativeStore, texts) {
    if (token !== OPENING) {
      throw new CitestoreError("use `await Store.open(location, options)` to open a store", "BAD_INPUT");
    }
    this.#native = nativeStore;
    this.#texts = new RevisionTexts(
      (docId, revision) => call(nativeStore.chunks(docId, revision)),
      texts,
      (docId, revision) => call(nativeStore.revisionText(docId, revision)),
    );
  }

  /**
   * Opens the store at `location` (a SQLite file path, or a `postgres://` URL), creating it
   * when missing and upgrading an older schema, unless `{ readOnly: true }`.
   */
  static async open(location, opts) {
    const o = options(opts, "Store.open");
    text(location, "location");
    if (o.readOnly && o.force) {
      throw new BadInput("{ force: true } writes citestore's tables; it cannot go with { readOnly: true }");
    }
    if (o.texts !== undefined && o.texts !== null && typeof o.texts !== "function") {
      throw new BadInput(`texts: give a function (docId, revision) => text, not a ${kind(o.texts)}`);
    }
    let opened;
    try {
      opened = await native.open(location, optionalText(o.config, "config"), Boolean(o.readOnly), Boolean(o.force));
    } catch (err) {
      throw fromNative(err);
    }
    return new Store(OPENING, opened, o.texts ?? undefined);
  }

  /** The store's location (a PostgreSQL URL without its password). */
  get location() {
    return this.#native.location;
  }

  /** Opened with `{ readOnly: true }`. */
  get readOnly() {
    return this.#native.readOnly;
  }

  /** `close()` was called. */
  get closed() {
    return this.#closed;
  }

  /** Ends the use of this store: every call opens its own connection, so nothing stays open. */
  close() {
    this.#closed = true;
  }

  get #live() {
    if (this.#closed) {
      throw new CitestoreError(`${this.location}: this Store is closed; open it again with Store.open(location)`, "STORE_CLOSED");
    }
    return this.#native;
  }

  /** Stores `text` as the latest revision of `docId`. */
  async ingestText(docId, source, opts) {
    const live = this.#live;
    const o = options(opts, "ingestText");
    text(docId, "docId");
    text(source, "text");
    if (o.chunker !== undefined && o.chunker !== null && o.chunks !== undefined && o.chunks !== null) {
      throw new BadInput("give { chunker } or { chunks }, not both");
    }
    const index = TextIndex.of(source);
    const chunks = o.chunks === undefined || o.chunks === null ? null : chunksJson(o.chunks, source, index);
    const done = (async () => {
      const ingested = camelKeys(
        await call(live.ingestText(docId, source, optionalText(o.chunker, "chunker"), chunks && chunks.json)),
      );
      // Chunks that leave gaps, or no chunking at all, cannot give the text back: it is kept.
      this.#texts.remember(docId, ingested.seq, index, ingested.chunking === null || Boolean(chunks && chunks.gapped));
      return ingested;
    })();
    this.#texts.ingest(docId, done);
    return done;
  }

  /** Ingests files or folders, as `citestore ingest`. */
  async ingest(paths, opts) {
    const live = this.#live;
    const o = options(opts, "ingest");
    const given = strings(paths, "paths");
    const extract = extractPair(o);
    const timeout = seconds(o.extractTimeout, "extractTimeout");
    let chunks = null;
    let index = null;
    if (o.chunks !== undefined && o.chunks !== null) {
      if (o.chunker !== undefined && o.chunker !== null) throw new BadInput("give { chunker } or { chunks }, not both");
      const fs = require("node:fs");
      // A missing file is the library's to name (NOT_FOUND), when it reads it below.
      if (given.length !== 1 || fs.statSync(given[0], { throwIfNoEntry: false })?.isDirectory()) {
        throw new BadInput("{ chunks } needs exactly one file to ingest, not a folder or several paths");
      }
      // The text the ingest will store, so the chunks' string indices can be made code points.
      const source = await call(native.extractText(given[0], extract, timeout));
      index = TextIndex.of(source, given[0]);
      chunks = chunksJson(o.chunks, source, index);
    }
    const done = this.#ingestFiles(live, given, o, extract, timeout, chunks, index);
    if (index && typeof o.docId === "string") this.#texts.ingest(o.docId, done);
    return done;
  }

  async #ingestFiles(live, given, o, extract, timeout, chunks, index) {
    const report = camelKeys(
      await call(
        live.ingest(
          given,
          optionalText(o.docId, "docId"),
          optionalText(o.chunker, "chunker"),
          chunks && chunks.json,
          extract,
          timeout,
        ),
      ),
    );
    if (index) {
      for (const doc of report.documents) this.#texts.remember(doc.docId, doc.seq, index, chunks.gapped);
    }
    return report;
  }

  /** Re-chunks documents' latest revisions with `chunker` (all documents by default). */
  async chunk(chunker, opts) {
    const live = this.#live;
    const o = options(opts, "chunk");
    return camelKeys(await call(live.chunk(text(chunker, "chunker"), strings(o.docs, "docs"))));
  }

  /**
   * The documents, each with its latest revision and current chunking. `charLen` is a count,
   * not an offset: the store's, in code points.
   */
  async docs() {
    return camelKeys(await call(this.#live.docs()));
  }

  /** A document's chunks as a revision's current chunking holds them (its latest by default). */
  async chunks(docId, opts) {
    const live = this.#live;
    const o = options(opts, "chunks");
    text(docId, "docId");
    const revision = o.revision === undefined || o.revision === null ? null : whole(o.revision, "revision", 1);
    const raw = await call(live.chunks(docId, revision));
    const out = camelKeys(raw);
    const spans = new Spans(this.#texts);
    spans.withChunks(out.docId, out.revision, raw.chunks);
    for (const chunk of out.chunks) spans.add(chunk, out.docId, out.revision, "start", "end");
    await spans.convert();
    return out;
  }

  /** Retires documents that are gone for good. */
  async retire(docIds) {
    const live = this.#live;
    const ids = strings(docIds, "docIds");
    if (ids.length === 0) throw new BadInput("retire: give the doc ids to retire");
    return camelKeys(await call(live.retire(ids)));
  }

  /** Records the chunks a model is shown: every chunk of each of `docs`, then each of `chunks`. */
  async context(selection) {
    const live = this.#live;
    const o = options(selection, "context");
    const docs = strings(o.docs, "docs");
    const given = o.chunks === undefined || o.chunks === null ? [] : o.chunks;
    if (!Array.isArray(given)) throw new BadInput(`chunks: give an array of chunk ids, not a ${kind(given)}`);
    const chunks = given.map((chunk, i) => {
      if (typeof chunk === "string") return chunk;
      if (chunk && typeof chunk === "object" && typeof chunk.id === "string") return chunk.id;
      throw new BadInput(`chunks[${i}]: give a chunk id (citestore's, or your own), or a chunk object with an id`);
    });
    const { output, prompt } = await call(live.context(docs, chunks));
    const out = camelKeys(output);
    const spans = new Spans(this.#texts);
    for (const chunk of out.chunks) spans.add(chunk, chunk.docId, chunk.revision, "start", "end");
    await spans.convert();
    return new Context(out.context, out.chunks, prompt);
  }

  /** Cites a model's answer against a recorded context and stores its citations. */
  async cite(context, answer) {
    const live = this.#live;
    const contextId = contextIdOf(context);
    const out = camelKeys(await call(live.cite(contextId, answerText(answer, "answer"))));
    return this.#citeResult(out, context);
  }

  /** Cites an Anthropic Messages response that used the Citations API. */
  async importAnthropic(context, message, opts) {
    const live = this.#live;
    const o = options(opts, "importAnthropic");
    const sent = o.sent === undefined || o.sent === null ? "chunks" : text(o.sent, "sent");
    const out = camelKeys(
      await call(live.importAnthropic(contextIdOf(context), answerText(message, "message"), sent)),
    );
    return this.#citeResult(out, context);
  }

  /**
   * Cites a provider's cited answer (`format`: anthropic, cohere, gemini, openai-responses,
   * ai-sdk, langchain-quoted) as `citestore import FORMAT`: its sources mapped onto the
   * context's chunks, each quote located, a source named without a quote a `review` with a
   * proposed sentence. `opts.sent` is anthropic's only.
   */
  async importResponse(format, context, response, opts) {
    const live = this.#live;
    const o = options(opts, "importResponse");
    const name = text(format, "format");
    const sent = optionalText(o.sent, "sent");
    const out = camelKeys(
      await call(live.importResponse(name, contextIdOf(context), answerText(response, "response"), sent)),
    );
    return this.#citeResult(out, context);
  }

  /**
   * A cite result with each evidence's `source` (the SourceRef it became, null when it was not
   * located) and its offsets as string indices. Each located span is in a chunk of the
   * context, which names its document and content hash. An import's offsets too: each claim's
   * `answerSpan` into `answer`, and each `proposal` into the revision its evidence names.
   */
  async #citeResult(out, context) {
    const located = [];
    const proposed = [];
    const answer = typeof out.answer === "string" ? TextIndex.of(out.answer, "the answer") : null;
    for (const claim of out.claims) {
      if (claim.answerSpan && answer) {
        claim.answerSpan = {
          start: answer.toUtf16(claim.answerSpan.start),
          end: answer.toUtf16(claim.answerSpan.end),
        };
      }
      for (const ev of claim.evidence) {
        ev.source = null;
        if (ev.citation && ev.start !== null && ev.end !== null && ev.revision !== null) located.push(ev);
        if (ev.proposal) proposed.push(ev);
      }
    }
    // Where each located span's chunk is from: the Context given, else the chunks of the
    // revision its id names, else (a chunk re-chunked away since) the citation as stored.
    const byChunk = new Map();
    if (context instanceof Context) for (const chunk of context.chunks) byChunk.set(chunk.chunkId, chunk);
    const revisions = new Map();
    for (const ev of located) {
      const parts = ev.chunkId && !byChunk.has(ev.chunkId) ? chunkIdParts(ev.chunkId) : null;
      if (parts) revisions.set(`${parts.revision}\u0000${parts.docId}`, parts);
    }
    await Promise.all(
      [...revisions.values()].map(async ({ docId, revision }) => {
        const held = await call(this.#native.chunks(docId, revision));
        for (const chunk of held.chunks) {
          if (!byChunk.has(chunk.chunk_id)) byChunk.set(chunk.chunk_id, { docId, contentHash: chunk.content_hash });
        }
      }),
    );
    const byCitation = new Map();
    await Promise.all(
      located
        .filter((ev) => !byChunk.has(ev.chunkId))
        .map(async (ev) => {
          const stored = camelKeys(await call(this.#native.show(ev.citation))).citation;
          byCitation.set(ev.citation, { docId: stored.docId, contentHash: stored.contentHash });
        }),
    );
    const spans = new Spans(this.#texts);
    const from = new Map();
    for (const ev of located) {
      const where = byChunk.get(ev.chunkId) ?? byCitation.get(ev.citation);
      from.set(ev, where);
      spans.add(ev, where.docId, ev.revision, "start", "end");
    }
    // A proposal indexes the revision of its evidence: the located span's, else the one its
    // chunk id names.
    for (const ev of proposed) {
      const where = from.get(ev);
      const parts = where ? { docId: where.docId, revision: ev.revision } : chunkIdParts(ev.chunkId ?? "");
      if (!parts) {
        throw new CitestoreError(`a proposal on ${JSON.stringify(ev.label)} names no revision; please report it`, "INTERNAL");
      }
      spans.add(ev.proposal, parts.docId, parts.revision, "start", "end");
    }
    await spans.convert();
    for (const ev of located) {
      const { docId, contentHash } = from.get(ev);
      ev.source = { docId, contentHash, start: ev.start, end: ev.end, revision: ev.revision };
    }
    return out;
  }

  /**
   * Verifies cited claims with a judge: the claims of answers cited against `context`, or
   * `all`, or those owning `citations`. Every verdict is recorded.
   */
  async verify(opts) {
    const live = this.#live;
    const o = options(opts, "verify");
    const given = (value) => value !== undefined && value !== null && value !== false;
    if ([given(o.context), given(o.all), given(o.citations)].filter(Boolean).length !== 1) {
      throw new BadInput("verify: give exactly one of { context }, { all: true } or { citations: [...] }");
    }
    let scope;
    let ids;
    if (given(o.context)) [scope, ids] = ["context", [contextIdOf(o.context)]];
    else if (given(o.all)) [scope, ids] = ["all", []];
    else [scope, ids] = ["citations", strings(o.citations, "citations")];
    let accept = null;
    if (o.accept !== undefined && o.accept !== null) {
      if (typeof o.accept !== "number" || !(o.accept >= 0 && o.accept <= 1)) {
        throw new BadInput(`accept: ${String(o.accept)}: give a confidence from 0 to 1`);
      }
      accept = o.accept;
    }
    return camelKeys(
      await call(live.verify(scope, ids, optionalText(o.judge, "judge"), accept, seconds(o.timeout, "timeout"))),
    );
  }

  /** Runs the nightly job: re-extracts changed files, re-chunks, re-anchors every citation. */
  async sweep(opts) {
    const live = this.#live;
    const o = options(opts, "sweep");
    const summary = camelKeys(
      await call(
        live.sweep(
          strings(o.docs, "docs"),
          optionalText(o.chunker, "chunker"),
          Boolean(o.noExtract),
          optionalText(o.shard, "shard"),
          optionalText(o.run, "run"),
          seconds(o.extractTimeout, "extractTimeout"),
          Boolean(o.fullCheck),
        ),
      ),
    );
    if (summary.errors.length > 0) {
      const lines = summary.errors.map((e) => `${e.docId}: not swept: ${e.error ?? ""}`).join("; ");
      throw new SweepIncomplete(
        `sweep ${summary.sweep}: ${summary.errors.length} of ${summary.documents} documents not swept: ${lines}`,
        summary,
      );
    }
    return summary;
  }

  /** Reads every page of the store now and records that it is sound (`citestore check`). */
  async check() {
    return camelKeys(await call(this.#live.check()));
  }

  /** Citation health: counts by status, the trend over sweeps, the worst documents. */
  async health(opts) {
    const live = this.#live;
    const o = options(opts, "health");
    const sweeps = o.sweeps === undefined || o.sweeps === null ? 10 : whole(o.sweeps, "sweeps", 0);
    return camelKeys(await call(live.health(Boolean(o.byDoc), sweeps)));
  }

  /** The citations whose status or span changed in the sweeps after `since` (default: the latest sweep). */
  async changes(opts) {
    const live = this.#live;
    const o = options(opts, "changes");
    let since = null;
    if (o.since !== undefined && o.since !== null) {
      if (typeof o.since === "number") since = String(whole(o.since, "since", 0));
      else since = text(o.since, "since");
    }
    const out = camelKeys(await call(live.changes(since)));
    const spans = new Spans(this.#texts);
    for (const change of [...out.changes, ...out.revisionOnly]) {
      spans.add(change.before, change.docId, change.before.revision, "start", "end");
      spans.add(change.after, change.docId, change.after.revision, "start", "end");
    }
    await spans.convert();
    return out;
  }

  /** Citations by current status (all by default), optionally of one document. */
  async citations(opts) {
    const live = this.#live;
    const o = options(opts, "citations");
    const lines = camelKeys(await call(live.citations(statuses(o.status), optionalText(o.doc, "doc"))));
    const spans = new Spans(this.#texts);
    for (const line of lines) {
      spans.add(line, line.docId, line.foundRevision, "foundStart", "foundEnd");
      if (line.current) spans.add(line.current, line.docId, line.current.revision, "start", "end");
    }
    await spans.convert();
    return lines;
  }

  /** One citation in full: as made, where it is now, its history and verifications. */
  async show(citationId) {
    const live = this.#live;
    const out = camelKeys(await call(live.show(text(citationId, "citationId"))));
    const docId = out.citation.docId;
    const spans = new Spans(this.#texts);
    spans.add(out.citation, docId, out.citation.revision, "start", "end");
    if (out.current) spans.add(out.current, docId, out.current.revision, "start", "end");
    for (const row of out.history) spans.add(row, docId, row.fromRevision, "start", "end");
    await spans.convert();
    return out;
  }

  /** Every citation and where it is now; `{ format: "w3c" }`: as W3C Web Annotations. */
  async export(opts) {
    const live = this.#live;
    const o = options(opts, "export");
    const format = o.format === undefined || o.format === null ? "jsonl" : o.format;
    if (format === "w3c") {
      const annotations = camelKeys(await call(live.exportW3C()));
      for (const annotation of annotations) {
        for (const selector of annotation.target.selector) {
          if (selector.type === "TextPositionSelector") {
            // The library's own UTF-16 positions of the span, in place of its code points.
            selector.start = selector["citestore:utf16Start"];
            selector.end = selector["citestore:utf16End"];
            delete selector["citestore:utf16Start"];
            delete selector["citestore:utf16End"];
          }
        }
      }
      return annotations;
    }
    if (format !== "jsonl") throw new BadInput(`format: ${JSON.stringify(format)}: give "jsonl" or "w3c"`);
    const lines = camelKeys(await call(live.export()));
    const spans = new Spans(this.#texts);
    for (const line of lines) {
      spans.add(line, line.docId, line.revision, "start", "end");
      if (line.current) spans.add(line.current, line.docId, line.current.revision, "start", "end");
      if (line.lastKnown) spans.add(line.lastKnown, line.docId, line.lastKnown.revision, "start", "end");
    }
    await spans.convert();
    return lines;
  }

  /** Writes one self-contained HTML page of what a sweep changed to `out`. */
  async report(opts) {
    const live = this.#live;
    const o = options(opts, "report");
    const out = text(o.out, "out");
    if (o.sweep !== undefined && o.sweep !== null && o.since !== undefined && o.since !== null) {
      throw new BadInput("give { sweep } or { since }, not both");
    }
    const sweep = o.sweep === undefined || o.sweep === null ? null : whole(o.sweep, "sweep", 1);
    let since = null;
    if (o.since !== undefined && o.since !== null) {
      since = typeof o.since === "number" ? String(whole(o.since, "since", 0)) : text(o.since, "since");
    }
    const limit = o.limit === undefined || o.limit === null ? 2000 : whole(o.limit, "limit", 0);
    return camelKeys(await call(live.report(out, sweep, since, statuses(o.status), strings(o.docs, "docs"), limit)));
  }
}

function contextIdOf(context) {
  if (context instanceof Context) return context.id;
  if (typeof context === "string") return context;
  throw new BadInput(`context: give the Context store.context() returned, or its id, not a ${kind(context)}`);
}

/**
 * Finds `quote` in `chunk`: exactly, then after folding typography, then by fuzzy alignment.
 * Synchronous. Offsets (and `near`) are string indices into `chunk`; `text` is
 * `chunk.slice(start, end)`.
 */
function locate(chunk, quote, opts) {
  if (typeof chunk !== "string") text(chunk, "chunk");
  if (typeof quote !== "string") text(quote, "quote");
  let found;
  try {
    found = opts === undefined ? native.locate(chunk, quote) : locateWith(chunk, quote, options(opts, "locate"));
  } catch (err) {
    throw err instanceof CitestoreError ? err : fromNative(err);
  }
  if (found === null) return null;
  let { start, end } = found;
  if (found.astral) {
    const index = TextIndex.of(chunk, "chunk");
    start = index.toUtf16(start);
    end = index.toUtf16(end);
  }
  const out = { start, end, score: found.score, how: found.how, occurrences: found.occurrences, text: chunk.slice(start, end) };
  if (typeof found.reason === "string") out.reason = found.reason;
  if (found.hints) out.hints = found.hints;
  return out;
}

/** `locate` with options: hints, cut-offs; `near` a string index made a code point. */
function locateWith(chunk, quote, o) {
  let near = null;
  if (o.near !== undefined && o.near !== null) {
    near = TextIndex.of(chunk, "chunk").toCodePointLenient(whole(o.near, "near", 0));
  }
  const number = (value, name) => {
    if (value === undefined || value === null) return null;
    if (typeof value !== "number" || Number.isNaN(value)) throw new BadInput(`${name}: give a score from 0 to 100`);
    return value;
  };
  return native.locate(
    chunk,
    quote,
    optionalText(o.prefix, "prefix"),
    optionalText(o.suffix, "suffix"),
    near,
    number(o.accept, "accept"),
    number(o.review, "review"),
    o.meaningGuard === undefined || o.meaningGuard === null ? null : Boolean(o.meaningGuard),
  );
}

/**
 * The `emit_answer` tool the model fills in, in an API's tool shape: "anthropic", "openai"
 * (Chat Completions), "openai-responses" or "ai-sdk" (whatever formats the library knows; its
 * keys are the API's own, not camelCased).
 */
function schema(format = "anthropic") {
  return callSync(() => native.schema(text(format, "format")));
}

/** The claims of a cite result that carry at least one SourceRef, each with its `sources`. */
function citedClaims(result) {
  if (!result || !Array.isArray(result.claims)) {
    throw new BadInput("citedClaims: give the result of store.cite(), store.importResponse() or store.importAnthropic()");
  }
  const out = [];
  for (const claim of result.claims) {
    const sources = claim.evidence.map((ev) => ev.source).filter((source) => source);
    if (sources.length > 0) out.push({ ...claim, sources });
  }
  return out;
}

/**
 * Chunks for `ingestText` from a splitter's pieces of `text` (LangChain.js `splitText` strings,
 * or Documents' `pageContent`): each piece is found in order, searching from just after where
 * the previous one started (as LangChain Python's `add_start_index` does). Offsets are string
 * indices; each chunk carries its text (checked again at ingest) and a Document's `id`.
 */
function chunksFromText(source, pieces) {
  text(source, "text");
  if (!Array.isArray(pieces)) throw new BadInput(`pieces: give an array of strings or Documents, not a ${kind(pieces)}`);
  let previous = -1;
  return pieces.map((piece, i) => {
    let content;
    let id;
    if (typeof piece === "string") content = piece;
    else if (piece && typeof piece === "object" && typeof piece.pageContent === "string") {
      content = piece.pageContent;
      if (typeof piece.id === "string" && piece.id !== "") id = piece.id;
    } else {
      throw new BadInput(`pieces[${i}]: a ${kind(piece)}; give strings, or Documents with pageContent`);
    }
    if (content === "") throw new BadInput(`pieces[${i}] is empty; a chunk holds text`);
    const start = source.indexOf(content, previous + 1);
    if (start < 0) {
      throw new BadInput(
        `pieces[${i}] is not in the text after index ${previous + 1}; give the pieces in the ` +
          `order the splitter made them from this very text (a piece the splitter rewrote cannot be found)`,
      );
    }
    previous = start;
    const chunk = { start, end: start + content.length, text: content };
    if (id !== undefined) chunk.id = id;
    return chunk;
  });
}

module.exports = { Store, Context, locate, schema, citedClaims, chunksFromText };
