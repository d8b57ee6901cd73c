/**
 * Offsets that leave the process are Unicode code points; JavaScript strings index UTF-16 units. These helpers
 * convert between the two without building arrays of characters.
 */

// No 'u' flag: with it a surrogate pair is one character and these tests would never match.
const SURROGATE = /[\ud800-\udfff]/;
const SURROGATE_PAIR = /[\ud800-\udbff][\udc00-\udfff]/;

/** The number of code points in a string. */
export function codePointLength(text: string): number {
  // Most texts hold no astral character: then units are code points, and the native scan beats a loop in JS.
  if (!SURROGATE.test(text)) return text.length;
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    length++;
  }
  return length;
}

/** The UTF-16 index of code point offset `offset` (clamped to the string's end). */
export function utf16Index(text: string, offset: number): number {
  if (!SURROGATE.test(text)) return Math.max(0, Math.min(offset, text.length));
  let index = 0;
  for (let points = 0; points < offset && index < text.length; points++) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    index += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return index;
}

/** The substring between code point offsets [start, end). */
export function sliceCodePoints(text: string, start: number, end?: number): string {
  const from = utf16Index(text, start);
  if (end === undefined) return text.slice(from);
  return text.slice(from, from + utf16Index(text.slice(from), end - start));
}

/**
 * A converter from UTF-16 indices to code point offsets for one string, for many lookups: O(1) each after one pass
 * (and no pass at all for the common string without astral characters).
 */
export function codePointIndexer(text: string): (utf16: number) => number {
  if (!SURROGATE_PAIR.test(text)) return (utf16) => utf16;
  const offsets = new Uint32Array(text.length + 1);
  let points = 0;
  for (let index = 0; index < text.length; index++) {
    offsets[index] = points;
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) offsets[++index] = points;
    points++;
  }
  offsets[text.length] = points;
  return (utf16) => offsets[utf16];
}
