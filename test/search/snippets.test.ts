// Snippets (src/search/snippets.ts): the window is the first one holding the most matches, whatever the text; the text
// shown is escaped, its white space runs one space, its marks around the matches inside the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { tokenize } from '../../src/search/analyze.ts';
import { shownText, snippetOfMatches, SNIPPET_CHARS } from '../../src/search/snippets.ts';

const PIECES = ['Kündigung', 'Miete', 'Mietverhältnis', 'wegen', 'Eigenbedarf', ' ', '  ', '\n', '\u00a0', '\t', '&', '<b>', '§ 573', 'Rn. 12', 'x'.repeat(300)];

test('snippets: the first window with the most matches, escaped, white space collapsed, every match in it marked', () => {
  const cases = fc.record({
    parts: fc.array(fc.constantFrom(...PIECES), { maxLength: 400 }),
    stems: fc.subarray(['kundig', 'miet', 'mietverhaltnis', 'eigenbedarf', 'wegen', 'rn']),
  });
  fc.assert(fc.property(cases, ({ parts, stems }) => {
    const text = parts.join(' ');
    const matches = tokenize(text).filter((token) => stems.includes(token.stem));
    const snippet = snippetOfMatches(text, matches);
    // The oracle: each match's count of matches ending within SNIPPET_CHARS of its start, the first of the largest.
    const counts = matches.map((first, i) => matches.slice(i).findIndex((token) => token.end - first.start > SNIPPET_CHARS));
    const sizes = counts.map((found, i) => (found === -1 ? matches.length - i : found));
    const best = sizes.indexOf(Math.max(...sizes));
    assert.equal(snippet.firstMatch, matches.length > 0 ? matches[best].start : null);
    assert.doesNotMatch(snippet.text, /[^\S ]| {2}|&(?!amp;|lt;|gt;)/u);
    assert.doesNotMatch(snippet.text.replace(/<\/?mark>/gu, ''), /[<>]/u);
    const marked = [...snippet.text.matchAll(/<mark>([^<]*)<\/mark>/gu)].map((found) => found[1]);
    assert.ok(marked.length <= matches.length && (matches.length === 0) === (marked.length === 0), `${marked.length} marked`);
  }), { numRuns: 300 });
});

// Session 20's snippet text, transcribed: each piece escaped, the marks joined in, white-space runs collapsed by
// /\s+/ over the whole and its ends trimmed. Session 21 collapses piece by piece; it must show the same string.
const oldEscape = (text: string) => (/[&<>]/u.test(text) ? text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;') : text);
const oldCollapse = (text: string) => (/[^\S ]| {2}/u.test(text) ? text.replace(/\s+/gu, ' ') : text).trim();
function oldShown(text: string, start: number, end: number, marks: { start: number; end: number }[]): string {
  let out = '';
  let at = start;
  for (const mark of marks) {
    if (mark.start < start || mark.end > end) continue;
    out += `${oldEscape(text.slice(at, mark.start))}<mark>${oldEscape(text.slice(mark.start, mark.end))}</mark>`;
    at = mark.end;
  }
  return oldCollapse(out + oldEscape(text.slice(at, end)));
}
// White space of every width and kind, runs of it, the three escaped characters, surrogates, words that match.
const ODD_PIECES = [...PIECES, '\u2028', '\u3000', '\ufeff', '\u200a', '\u180e', '\u200b', '\v\f\r', '>', '&amp;', '𝔄𝔟', '\ud800', 'Miete&Kündigung', ' \u00a0 ', 'a'];

test('snippets: pieces collapsed one by one show what collapsing the joined snippet showed (Session 20)', () => {
  const cases = fc.record({
    parts: fc.array(fc.constantFrom(...ODD_PIECES), { maxLength: 300 }),
    separator: fc.constantFrom(' ', '', '\n', '\u00a0'),
    stems: fc.subarray(['kundig', 'miet', 'mietverhaltnis', 'eigenbedarf', 'wegen', 'rn', 'a']),
    // A window anywhere (in white space, at a mark, empty), as shares of the text.
    from: fc.double({ min: 0, max: 1, noNaN: true }),
    width: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  fc.assert(fc.property(cases, ({ parts, separator, stems, from, width }) => {
    const text = parts.join(separator);
    const start = Math.floor(from * text.length);
    const end = start + Math.floor(width * (text.length - start));
    const words = tokenize(text).filter((token) => stems.includes(token.stem));
    assert.equal(shownText(text, start, end, words), oldShown(text, start, end, words));
    // Citation patterns mark spans holding white space, at the window's ends too, and empty spans.
    for (const pattern of [/Rn\.\s+\d+/gu, /\s*Miete\s*/gu, /§\s573/gu, /(?:)/gu, /&|<b>/gu, /\s+/gu]) {
      const marks = [...text.matchAll(pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
      assert.equal(shownText(text, start, end, marks), oldShown(text, start, end, marks));
    }
  }), { numRuns: 400 });
});

test('snippets: every code point (and lone surrogate) collapsed as white space exactly when JS calls it one (Session 24)', () => {
  // Each alone, doubled and beside a space, inside a piece and at its ends: the written-out class of the collapse test
  // against \s under the u flag (oldShown).
  for (let unit = 0; unit <= 0x10ffff; unit++) {
    const ch = String.fromCodePoint(unit);
    for (const text of [`a${ch}b`, `a ${ch}b`, `a${ch}${ch}b`, `${ch}x`, `x${ch}`]) {
      assert.equal(shownText(text, 0, text.length, []), oldShown(text, 0, text.length, []), `U+${unit.toString(16)} in ${JSON.stringify(text)}`);
    }
  }
});
