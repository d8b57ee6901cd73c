// The German analysis shared by index and queries: the Snowball stemmer, folding, stopwords, and match expressions
// that quote every term (no FTS5 syntax gets through).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stemGerman } from '../../src/search/german-stemmer.ts';
import { analyzedText, tokenize, tokensStartingWith } from '../../src/search/analyze.ts';
import { matchExpression, wordGroups } from '../../src/search/query.ts';
import { layTermsOf, LAY_TERM_COUNT } from '../../src/search/bridge.ts';

test('the Snowball German stemmer meets inflections and folds umlauts and ß', () => {
  const cases: [string, string][] = [
    ['kündigung', 'kundig'], ['kündigungen', 'kundig'], ['mieter', 'miet'], ['miete', 'miet'], ['häuser', 'haus'],
    ['wohnungen', 'wohnung'], ['gründe', 'grund'], ['mieterhöhung', 'mieterhoh'], ['straße', 'strass'],
    ['aufeinander', 'aufeinand'], ['räumungsklage', 'raumungsklag'], ['schadensersatzanspruch', 'schadensersatzanspruch'],
  ];
  for (const [word, stem] of cases) assert.equal(stemGerman(word), stem, word);
});

test('tokenize drops stopwords and single letters, keeps digits, and gives UTF-16 spans of the original text', () => {
  const text = 'Der Vermieter kündigt nach § 573 Abs. 2 BGB die Wohnung.';
  const tokens = tokenize(text);
  assert.deepEqual(tokens.map((t) => t.stem), ['vermiet', 'kundigt', '573', 'abs', '2', 'bgb', 'wohnung']);
  assert.equal(text.slice(tokens[1].start, tokens[1].end), 'kündigt');
  assert.equal(analyzedText('Räumung RÄUMUNG Raumung'), 'raumung raumung raumung');
});

test('tokensStartingWith finds what tokenize finds for words beginning with the stems, in any case, umlauts and ß', () => {
  const text = 'Die KÜNDIGUNG des Mietverhältnisses; Kündigungen, Kundige, kündbar. Die Straße und die Strasse, '
    + 'die Modernisierungsmieterhöhung, 12 Mieterhöhungen, nicht: Vorkündigung, ÜberKündigung, Mieter.';
  for (const prefixes of [['kundig'], ['strass', 'mieterhoh'], ['modernisierungsmieterhoh', 'mieterhoh'], ['12'], ['mieter']]) {
    const expected = tokenize(text).filter((token) => prefixes.some((prefix) => token.word.startsWith(prefix)));
    assert.deepEqual(tokensStartingWith(text, prefixes), expected, prefixes.join(','));
    assert.ok(expected.length > 0, prefixes.join(','));
  }
  assert.deepEqual(tokensStartingWith(text, []), []);
});

test('tokensStartingWith finds the words a look-behind for the word start finds, in any text (property)', () => {
  // The pattern as it was with the look-behind, and its loop: the definition the faster scan must keep.
  const surface = (stem: string) => stem.replace(/ss/gu, '(?:ss|ß)').replace(/a/gu, '[aä]').replace(/o/gu, '[oö]').replace(/u/gu, '[uü]');
  const withLookBehind = (text: string, prefixes: string[]) => {
    const usable = [...new Set(prefixes)].sort((a, b) => b.length - a.length);
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${usable.map(surface).join('|')})[\\p{L}\\p{N}]*`, 'giu');
    return [...text.matchAll(pattern)].flatMap((match) => tokenize(match[0]).length === 1 && tokenize(match[0])[0].end === match[0].length
      ? [{ ...tokenize(match[0])[0], start: match.index, end: match.index + match[0].length }] : []);
  };
  const pieces = ['kündig', 'Kündigung', 'KUNDIG', 'vor', 'über', 'Straße', 'STRASSE', 'strass', 'miet', 'Miete', 'ß', 'ẞ', 'ss',
    '𝔎', '😀', '\u0308', 'İ', '12', '𝟙', ' ', '  ', ', ', '.', '-', '\n', 'Ǆ', 'ǅ', 'a', 'u', 'ü', 'Ü'];
  const text = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''));
  const prefixes = fc.array(fc.constantFrom('kundig', 'strass', 'miet', 'mieterhoh', '12', 'u', 'vor', 'ub', 'ss', 'i\u0307', 'k\u0308'), { minLength: 1, maxLength: 3 });
  fc.assert(fc.property(text, prefixes, (sample, list) => {
    assert.deepEqual(tokensStartingWith(sample, Object.freeze([...list])), withLookBehind(sample, list));
  }), { numRuns: 3000 });
});

test('match expressions quote every term: FTS5 operators in a query are words', () => {
  const expression = matchExpression(wordGroups(null, 'NEAR( "Miete" * -Kündigung OR title:x'), true);
  assert.equal(expression, '"near" AND "miet" AND "kundig"* AND "or" AND "titl"');
  assert.equal(matchExpression(wordGroups(null, '*** "" ---'), true), '');
});

test('the bridge holds at least 300 lay terms and matches whole words, longest first', () => {
  assert.ok(LAY_TERM_COUNT >= 300);
  assert.deepEqual(layTermsOf('Mein Chef hat mich gefeuert').map((m) => m.lay), ['chef', 'gefeuert']);
  assert.deepEqual(layTermsOf('Chefarzt'), []);
  assert.deepEqual(layTermsOf('Eigenbedarfskündigung Härtefall'), []);
});
