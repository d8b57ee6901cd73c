// The German analysis shared by index and queries: the Snowball stemmer, folding, stopwords, and match expressions
// that quote every term (no FTS5 syntax gets through).
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
