// Snippets (src/search/snippets.ts): the window is the first one holding the most matches, whatever the text; the text
// shown is escaped, its white space runs one space, its marks around the matches inside the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { tokenize } from '../../src/search/analyze.ts';
import { snippetOfMatches, SNIPPET_CHARS } from '../../src/search/snippets.ts';

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
