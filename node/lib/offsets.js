"use strict";
// The one map between the store's offsets (Unicode code points) and JavaScript's (string
// indices: UTF-16 code units). Every offset the package takes or returns goes through a
// TextIndex of the text it indexes.
//
// A text's index is where its astral characters (U+10000 and up: emoji, many CJK extensions,
// mathematical letters; two code units each in JavaScript, one code point in the store) are.
// An offset before the k-th astral character is the same in both units; after it, the string
// index is k more. A lone surrogate in a JavaScript string is one code unit here, and one
// code point (U+FFFD) in the store, so it shifts nothing.

const { BadInput, TextUnavailable } = require("./errors");

/** Number of items of the ascending array `sorted` below `value`. */
function below(sorted, value) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class TextIndex {
  /**
   * @param {number[]} astral code point offsets of the astral characters, ascending
   * @param {number} known code points known from the start of the text (its length when whole)
   * @param {string} name what the text is, for errors
   */
  constructor(astral, known, name) {
    this.astral = astral;
    this.known = known;
    this.name = name;
  }

  /** The index of a JavaScript string. */
  static of(text, name = "the text") {
    const astral = [];
    let cp = 0;
    for (let i = 0; i < text.length; i++, cp++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          astral.push(cp);
          i++;
        }
      }
    }
    return new TextIndex(astral, cp, name);
  }

  /**
   * The index of a revision's text as its chunks hold it: `chunks` are `{start, end, text}`
   * in code points, in text order (overlaps allowed). Known up to the first gap; a chunker's
   * chunks tile the text, so all of it is known.
   */
  static fromChunks(chunks, name) {
    const astral = [];
    let known = 0;
    for (const chunk of chunks) {
      if (chunk.start > known) break;
      if (chunk.end <= known) continue;
      // Code points of this chunk already covered by earlier ones are skipped.
      let cp = chunk.start;
      const text = chunk.text;
      for (let i = 0; i < text.length; i++, cp++) {
        const c = text.charCodeAt(i);
        let pair = false;
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
          const d = text.charCodeAt(i + 1);
          pair = d >= 0xdc00 && d <= 0xdfff;
        }
        if (pair) {
          if (cp >= known) astral.push(cp);
          i++;
        }
      }
      known = Math.max(known, chunk.end);
    }
    return new TextIndex(astral, known, name);
  }

  /** Whether every code point offset up to `cp` can be converted. */
  covers(cp) {
    return cp <= this.known;
  }

  /** The string index of code point offset `cp`. */
  toUtf16(cp) {
    if (cp > this.known) {
      throw new TextUnavailable(
        `${this.name}: its text is known here only up to code point ${this.known} (its ` +
          `chunks leave a gap), so offset ${cp} cannot be given as a JavaScript string index; ` +
          `give Store.open(location, { texts }) a function that returns a revision's text, ` +
          `or ingest the text with store.ingestText in this process`,
      );
    }
    return cp + below(this.astral, cp);
  }

  /**
   * The code point offset of string index `index`; `what` names it in errors (an index inside
   * an astral character's two code units is refused, as it cuts a character in half).
   */
  toCodePoint(index, what) {
    // Astral character k starts at string index astral[k] + k.
    let lo = 0;
    let hi = this.astral.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.astral[mid] + mid < index) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && this.astral[lo - 1] + (lo - 1) + 1 === index) {
      throw new BadInput(
        `${what}: ${index} falls between the two UTF-16 code units of one character (an ` +
          `emoji or other character above U+FFFF); give an index at a character boundary`,
      );
    }
    return index - lo;
  }

  /** `index` as a code point offset, a cut character taken from its start (for hints). */
  toCodePointLenient(index) {
    try {
      return this.toCodePoint(index, "");
    } catch {
      return this.toCodePoint(index - 1, "");
    }
  }
}

module.exports = { TextIndex };
