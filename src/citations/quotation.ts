// Quotations in a checked text and their search in a held text (a decision's or a provision's). Both sides are
// reduced to their words, folded (case, diacritics, ß, soft hyphens, a hyphen at a line end), so that whitespace,
// line breaks, punctuation and quotation-mark styles never decide; every word must be there, in order.

/** A quotation in the checked text: UTF-16 offsets of the marks and the text between them. */
export interface Quotation {
  start: number;
  end: number;
  /** The text between the marks, as written. */
  text: string;
  /** The folded words of each part between omissions ('[...]', '(...)', '…', an editorial insertion '[des Klägers]'). */
  segments: string[][];
  omissions: number;
}

/** Fewer words than this are a term in quotation marks ('„Benötigen“'), not a quotation to look up. */
export const MIN_QUOTATION_WORDS = 4;
const MAX_QUOTATION_CHARS = 3000;
/** How many folded letters an omission may skip in the held text. */
const MAX_OMISSION = 6000;

/** Opening mark -> the marks that close it. A '“' opens only where no '„' is open (English style). */
const CLOSERS: Record<string, string> = { '„': '“”"', '"': '"', '»': '«', '«': '»', '“': '”' };
const OPENER = /[„"»«“]/gu;
// An omission or an editorial insertion; a one- or two-letter bracket is a changed case ('[d]er') and stays a word.
const OMISSION = /\[\s*(?:\.(?: ?\.)+|…)\s*\]|\(\s*(?:\.(?: ?\.)+|…)\s*\)|\.(?: ?\.){2,}|…|\[[^\]]{3,}\]/gu;
const CASE_CHANGE = /\[(\p{L}{1,2})\]/gu;
const WORD = /[\p{L}\p{N}\p{M}\u00ad]+(?:-[ \t]*\r?\n[ \t]*[\p{L}\p{N}\p{M}\u00ad]+)*/gu;

/**
 * A word as compared: lower case, no diacritics or soft hyphens, ß as ss, a line-end hyphenation joined, and without
 * a sentence number glued to it ('2Einkünfte': gesetze-im-internet.de prints the Satz numbers of some laws so).
 */
export function foldWord(word: string): string {
  let w = /^\d/u.test(word) ? word.replace(/^\d{1,2}(?=\p{Lu}\p{Ll})/u, '') : word;
  // Diacritics, soft hyphens and footnote marks ('legen¹') go.
  if (/[^\x00-\x7f]/u.test(w)) w = w.normalize('NFD').replace(/[\u0300-\u036f\u00ad\u00b9\u00b2\u00b3\u2070-\u209f]/gu, '').replace(/ß/gu, 'ss');
  if (w.includes('\n')) w = w.replace(/-[ \t]*\r?\n[ \t]*/gu, '');
  w = w.toLowerCase();
  return SPELLED_OUT[w] ?? w;
}

/** Labels written out or abbreviated alike ('Absatz'/'Abs.'): a quotation may cite them either way. */
const SPELLED_OUT: Record<string, string> = {
  absatz: 'abs', absatzes: 'abs', nummer: 'nr', artikel: 'art', artikels: 'art', buchstabe: 'buchst', lit: 'buchst',
  randnummer: 'rn', randnr: 'rn', rdnr: 'rn', halbsatz: 'hs', halbs: 'hs',
};

function foldedWords(text: string): string[] {
  return Array.from(text.replace(CASE_CHANGE, '$1').matchAll(WORD), (m) => foldWord(m[0])).filter(Boolean);
}

/** Every quotation of at least MIN_QUOTATION_WORDS words in `text`, in order (nested quotation marks stay inside). */
export function findQuotations(text: string): Quotation[] {
  const out: Quotation[] = [];
  const closes = new Map<string, Int32Array>();
  OPENER.lastIndex = 0;
  for (let m = OPENER.exec(text); m; m = OPENER.exec(text)) {
    const open = m[0];
    const at = m.index;
    // A straight or English mark opens only at a word start: not '5"' (inches), not a closing mark left over.
    if ((open === '"' || open === '“') && (at > 0 && !/[\s([{/–—-]/u.test(text[at - 1]) || /\s/u.test(text[at + 1] ?? ' '))) continue;
    let closeOf = closes.get(open);
    if (!closeOf) closes.set(open, closeOf = closingMarks(text, open));
    const close = closeOf[at];
    if (close < 0 || close - at > MAX_QUOTATION_CHARS) continue;
    OPENER.lastIndex = close + 1;
    const inner = text.slice(at + 1, close);
    const parts = inner.split(OMISSION);
    const segments = parts.map(foldedWords).filter((words) => words.length > 0);
    const words = segments.reduce((n, s) => n + s.length, 0);
    if (words < MIN_QUOTATION_WORDS) continue;
    out.push({ start: at, end: close + 1, text: inner, segments, omissions: parts.length - 1 });
  }
  return out;
}

/**
 * For every `open` mark in `text`, where the mark that closes it stands (-1: none before a paragraph break), in one
 * pass: a quotation inside the quotation with the same marks ('„... „Wohnraum“ ...“') closes first, a straight '"'
 * closes at the next one. Scanning forward from each opening mark instead took seconds on a run of 15,000 '„'.
 */
function closingMarks(text: string, open: string): Int32Array {
  const close = new Int32Array(text.length).fill(-1);
  const closers = CLOSERS[open];
  const opened: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' && text[i + 1] === '\n') opened.length = 0;
    else if (open === '"' && ch === '"') {
      if (opened.length) close[opened.pop()!] = i;
      opened.push(i);
    } else if (ch === open) opened.push(i);
    else if (closers.includes(ch) && opened.length) close[opened.pop()!] = i;
  }
  return close;
}

/** A held text as words: folded, with their UTF-16 offsets and their concatenation for an exact search. */
export interface HeldText {
  text: string;
  words: string[];
  starts: Int32Array;
  ends: Int32Array;
  /** The folded words joined without separators; a quotation is found where its own joined words occur. */
  joined: string;
  /** Word index -> offset in `joined`; `wordAt` maps back. */
  joinedStart: Int32Array;
  wordAt: Map<number, number>;
  /** Folded word -> the word indices where it occurs (built on the first approximate search). */
  index?: Map<string, number[]>;
}

// A label at a line start: a Randnummer ('12\t'), an Absatz ('(2)'), an outline mark ('II.', '1.', 'a)'), or several.
const LABEL_SHAPE = /^(?:\d{1,3}[a-z]?|[IVXLC]{1,5}|[a-z]{1,2})$/u;
// Each label ends in its mark or a space, so the pattern cannot split a run of letters in many ways (no backtracking).
const LABELS_BEFORE = /^[ \t]*(?:\(?(?:\d{1,3}[a-z]?|[IVXLC]{1,5}|[a-z]{1,2})(?:[.)][ \t]*|[ \t]+))*\(?$/u;

/**
 * Reads a held text into words. Labels at a line start (Randnummern, Absatz numbers, outline marks) are no words of
 * the text, so a quotation that runs across two paragraphs is still found.
 */
export function heldText(text: string): HeldText {
  const words: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of text.matchAll(WORD)) {
    const at = m.index;
    if (LABEL_SHAPE.test(m[0]) && /[.)\t ]/u.test(text[at + m[0].length] ?? ' ')
      && labelsBefore(text, at)) continue;
    const word = foldWord(m[0]);
    if (!word) continue; // a soft hyphen or a combining mark alone
    words.push(word);
    starts.push(at);
    ends.push(at + m[0].length);
  }
  const joinedStart = new Int32Array(words.length + 1);
  const wordAt = new Map<number, number>();
  let offset = 0;
  for (const [i, w] of words.entries()) {
    joinedStart[i] = offset;
    wordAt.set(offset, i);
    offset += w.length;
  }
  joinedStart[words.length] = offset;
  return { text, words, starts: Int32Array.from(starts), ends: Int32Array.from(ends), joined: words.join(''), joinedStart, wordAt };
}

/** Whether only labels stand between the line start and `at` (a label is short: more than 24 characters are text). */
function labelsBefore(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return at - lineStart <= 24 && LABELS_BEFORE.test(text.slice(lineStart, at));
}

/** Where a quotation occurs: word indices [from, to] (inclusive) in the held text. */
export interface Occurrence { from: number; to: number }

/** First-segment positions tried at most: a quotation starting with a common word does not scan forever. */
const MAX_STARTS = 2000;

/**
 * Every occurrence of the quotation's segments in order, each at word boundaries (at most 20). After an omission the
 * next segment is placed at its first fit within MAX_OMISSION letters: greedy, so many short segments cost linear time.
 */
export function occurrences(held: HeldText, quotation: Quotation): Occurrence[] {
  const keys = quotation.segments.map((s) => s.join(''));
  const out: Occurrence[] = [];
  let tries = 0;
  for (let p = held.joined.indexOf(keys[0]); p >= 0 && out.length < 20 && tries++ < MAX_STARTS; p = held.joined.indexOf(keys[0], p + 1)) {
    const first = held.wordAt.get(p);
    if (first === undefined) continue;
    let end = endOf(held, p, keys[0]);
    for (let k = 1; k < keys.length && end !== null; k++) end = nextSegment(held, end, keys[k]);
    if (end !== null) out.push({ from: first, to: end - 1 });
  }
  return out;
}

/** The word index after `key` placed at joined offset `p`, or null where it ends inside a word. */
function endOf(held: HeldText, p: number, key: string): number | null {
  const end = p + key.length;
  return held.wordAt.get(end) ?? (end === held.joined.length ? held.words.length : null);
}

/** The word index after the first fit of `key` at a word start within MAX_OMISSION letters from word `after`, or null. */
function nextSegment(held: HeldText, after: number, key: string): number | null {
  const from = held.joinedStart[after];
  for (let q = held.joined.indexOf(key, from); q >= 0 && q <= from + MAX_OMISSION; q = held.joined.indexOf(key, q + 1)) {
    if (!held.wordAt.has(q)) continue;
    const end = endOf(held, q, key);
    if (end !== null) return end;
  }
  return null;
}

/** The passage of the held text closest to a quotation that is not in it: words [from, to] and the share that fits. */
export interface ClosestMatch extends Occurrence { similarity: number }

/**
 * The passage closest to the quotation's longest segment: anchored by the rarer words both share, then aligned word by
 * word (edit distance with free ends in the held text). similarity = 1 - edits / words of the quotation, at least 0;
 * null when no word of four letters or more is shared.
 */
export function closestMatch(held: HeldText, quotation: Quotation): ClosestMatch | null {
  const words = quotation.segments.reduce((a, b) => (b.length > a.length ? b : a));
  held.index ??= wordIndex(held.words);
  const votes = new Map<number, number>();
  for (const [i, w] of words.entries()) {
    const at = w.length >= 4 ? held.index.get(w) : undefined;
    if (!at || at.length > 80) continue;
    for (const j of at) votes.set(j - i, (votes.get(j - i) ?? 0) + 1);
  }
  let shift = 0;
  let best = 0;
  for (const d of votes.keys()) {
    let score = 0;
    for (let e = -3; e <= 3; e++) score += votes.get(d + e) ?? 0;
    if (score > best) {
      best = score;
      shift = d;
    }
  }
  if (best === 0) return null;
  const lo = Math.max(0, shift - 8);
  const hi = Math.min(held.words.length, shift + words.length + 8);
  return withSimilarity(align(words, held.words, lo, hi), words.length);
}

function withSimilarity(a: { edits: number; from: number; to: number }, n: number): ClosestMatch {
  return { from: a.from, to: a.to, similarity: Math.max(0, Math.round((1 - a.edits / n) * 100) / 100) };
}

/** Word edit distance of `q` against the best stretch of `h[lo, hi)`: free start and end in h. */
function align(q: readonly string[], h: readonly string[], lo: number, hi: number): { edits: number; from: number; to: number } {
  const width = hi - lo;
  let prev = new Int32Array(width + 1);
  let prevStart = Int32Array.from({ length: width + 1 }, (_, j) => j);
  let cur = new Int32Array(width + 1);
  let curStart = new Int32Array(width + 1);
  for (let i = 1; i <= q.length; i++) {
    cur[0] = i;
    curStart[0] = 0;
    for (let j = 1; j <= width; j++) {
      const sub = prev[j - 1] + (q[i - 1] === h[lo + j - 1] ? 0 : 1);
      const del = prev[j] + 1;
      const ins = cur[j - 1] + 1;
      if (sub <= del && sub <= ins) {
        cur[j] = sub;
        curStart[j] = prevStart[j - 1];
      } else if (del <= ins) {
        cur[j] = del;
        curStart[j] = prevStart[j];
      } else {
        cur[j] = ins;
        curStart[j] = curStart[j - 1];
      }
    }
    [prev, cur] = [cur, prev];
    [prevStart, curStart] = [curStart, prevStart];
  }
  let end = 1;
  for (let j = 1; j <= width; j++) if (prev[j] < prev[end]) end = j;
  return { edits: prev[end], from: lo + prevStart[end], to: lo + end - 1 };
}

function wordIndex(words: readonly string[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  for (const [i, w] of words.entries()) {
    const list = index.get(w);
    if (list) list.push(i);
    else index.set(w, [i]);
  }
  return index;
}
