// The German analysis shared by index and queries: the Snowball stemmer, folding, stopwords, and match expressions
// that quote every term (no FTS5 syntax gets through).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stemGerman } from '../../src/search/german-stemmer.ts';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzedText, tokenize, tokensStartingWith, type Token } from '../../src/search/analyze.ts';
import { matchExpression, termMatcher, wordGroups } from '../../src/search/query.ts';
import { wordsMatching } from '../../src/search/snippets.ts';
import { generate } from '../../bench/generate.ts';
import { sharedData, skipUnlessSharedData } from '../helpers/shared-data.ts';
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

// The pattern as it was with the look-behind, and its loop: the definition the faster scan must keep.
const surface = (stem: string) => stem.replace(/ss/gu, '(?:ss|ß)').replace(/a/gu, '[aä]').replace(/o/gu, '[oö]').replace(/u/gu, '[uü]');
function withLookBehind(text: string, prefixes: readonly string[]): Token[] {
  const usable = [...new Set(prefixes)].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${usable.map(surface).join('|')})[\\p{L}\\p{N}]*`, 'giu');
  return [...text.matchAll(pattern)].flatMap((match) => tokenize(match[0]).length === 1 && tokenize(match[0])[0].end === match[0].length
    ? [{ ...tokenize(match[0])[0], start: match.index, end: match.index + match[0].length }] : []);
}

/** The scan as it was until Session 20 (the sticky re-test at the word start): the old rule, to the character. */
function asScannedBefore(text: string, prefixes: readonly string[]): Token[] {
  const usable = [...new Set(prefixes)].sort((a, b) => b.length - a.length);
  const source = `(?:${usable.map(surface).join('|')})[\\p{L}\\p{N}]*`;
  const scan = new RegExp(source, 'giu');
  const at = new RegExp(source, 'yiu');
  const tokens: Token[] = [];
  while (scan.test(text)) {
    const end = scan.lastIndex;
    let start = end;
    while (start > 0 && /[\p{L}\p{N}]$/u.test(text.slice(0, start))) start -= /[\u{10000}-\u{10ffff}]$/u.test(text.slice(0, start)) ? 2 : 1;
    at.lastIndex = start;
    if (!at.test(text) || at.lastIndex !== end) continue;
    const [token] = tokenize(text.slice(start, end));
    if (token) tokens.push({ ...token, start, end });
  }
  return tokens;
}

test('tokensStartingWith finds the words a look-behind for the word start finds, in any text (property)', () => {
  const pieces = ['kündig', 'Kündigung', 'KUNDIG', 'vor', 'über', 'Straße', 'STRASSE', 'strass', 'miet', 'Miete', 'ß', 'ẞ', 'ss',
    '𝔎', '😀', '\u0308', 'İ', '12', '𝟙', ' ', '  ', ', ', '.', '-', '\n', 'Ǆ', 'ǅ', 'a', 'u', 'ü', 'Ü', '\u212aündigung', 'ſtraße', 'miet\u0345e', '\u0345', '\u2160', '„', '\u00a0', 'é'];
  const text = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''));
  const prefixes = fc.array(fc.constantFrom('kundig', 'strass', 'miet', 'mieterhoh', '12', 'u', 'vor', 'ub', 'ss', 'i\u0307', 'k\u0308'), { minLength: 1, maxLength: 3 });
  fc.assert(fc.property(text, prefixes, (sample, list) => {
    const expected = withLookBehind(sample, list);
    const found = tokensStartingWith(sample, Object.freeze([...list]));
    // Prefixes that are not words (never stems) take the other loop, which did not change.
    if (list.every((prefix) => /^[\p{L}\p{N}]+$/u.test(prefix))) assert.deepEqual(found, asScannedBefore(sample, list));
    if (!sample.includes('\u0345')) assert.deepEqual(found, expected);
    // `keep` leaves out exactly the tokens it refuses.
    const keep = (stem: string) => stem.length % 2 === 0;
    assert.deepEqual(tokensStartingWith(sample, Object.freeze([...list]), keep), found.filter((token) => keep(token.stem)));
  }), { numRuns: 3000 });
});

test('tokensStartingWith reads each text alike while one keep meets many words: more forms than it remembers, of equal lengths', () => {
  // A page remembers the words it met per pattern and keep (compared in place): forms of equal length but other stems,
  // in other cases, and more forms than are remembered must each be read as tokenize reads them.
  const forms = Array.from({ length: 60 }, (_, i) => `Miet${'abcdefghij'[i % 10]}${'klmnop'[Math.floor(i / 10)]}`);
  const texts = Array.from({ length: 30 }, (_, i) => [...forms.slice(i), ...forms.slice(0, i)].map((form, j) =>
    (j % 3 === 0 ? form.toUpperCase() : form)).join(i % 2 ? ', die Mieterin ' : ' MIETE '));
  const prefixes = Object.freeze(['miet']);
  const keep = (stem: string) => !stem.endsWith('k') && stem !== 'miet';
  for (const text of texts) {
    const expected = tokenize(text).filter((token) => token.word.startsWith('miet') && keep(token.stem));
    assert.deepEqual(tokensStartingWith(text, prefixes, keep), expected);
    assert.ok(expected.length > 30);
  }
});

/** Texts of `count` generated decisions (bench/generate.ts), tags dropped. */
function generatedTexts(count: number): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-analysis-'));
  try {
    generate(count, dir, 3);
    const folder = join(dir, 'batch-0000');
    return readdirSync(folder).map((file) => readFileSync(join(folder, file), 'utf8').replace(/<[^>]+>/gu, ' '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The words of each text the query's matcher finds (what a result page marks and counts in its chunks), against the
 * old rule (the look-behind's words, then the matcher), for queries of one to three words drawn from the text itself:
 * exact stems, prefixes, umlauts and ß as the text writes them.
 */
function assertPageMatches(texts: string[]): number {
  let found = 0;
  let seed = 11;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  for (const text of texts) {
    const words = [...new Set(text.match(/[\p{L}\p{N}]{3,}/gu) ?? [])];
    for (let query = 0; query < 12; query++) {
      const picked = Array.from({ length: 1 + Math.floor(random() * 3) }, () => words[Math.floor(random() * words.length)]);
      const isMatch = termMatcher(wordGroups(null, picked.join(' ')));
      // Pieces as a page's chunks are (some 1,100 characters), and the whole text.
      for (const piece of [text, ...(text.match(/[^]{1,1100}/gu) ?? [])]) {
        const matches = wordsMatching(piece, isMatch);
        assert.deepEqual(matches, withLookBehind(piece, isMatch.starts).filter((token) => isMatch(token.stem)), picked.join(' '));
        found += matches.length;
      }
    }
  }
  return found;
}

test('a page finds the same query words in generated decisions as the old rule', () => {
  assert.ok(assertPageMatches(generatedTexts(60)) > 1000);
});

test('a page finds the same query words in real decisions as the old rule', skipUnlessSharedData('decisions/oldp_json', 'decisions/rii_xml'), () => {
  const files = ['decisions/oldp_json', 'decisions/rii_xml'].flatMap((folder) =>
    readdirSync(sharedData(folder)).map((file) => sharedData(folder, file)));
  const texts = files.map((file) => readFileSync(file, 'utf8').replace(/<[^>]+>|\\[nrt]|\\u00a0/gu, ' '));
  assert.ok(texts.length >= 5);
  assert.ok(assertPageMatches(texts) > 1000);
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
