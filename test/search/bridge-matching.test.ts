// The bridge's lay-term matching against the plain rule it implements: every lay term tried at every position of the
// query, longest terms first (the lexicon's order among equals), a term taken where none of its words is taken yet.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { layTermsOf } from '../../src/search/bridge.ts';

const TOKEN = /[0-9a-zäöüß]+(?:-[0-9a-zäöüß]+)*/gu;
const lexicon = JSON.parse(readFileSync(new URL('../../src/search/bridge-lexicon.json', import.meta.url), 'utf8')) as {
  entries: { lay: string[]; legal: string[]; norms: string[] }[];
};
const terms = lexicon.entries
  .flatMap((entry) => entry.lay.map((lay) => ({ lay, words: lay.toLowerCase().match(TOKEN) ?? [], entry })))
  .filter((term) => term.words.length > 0)
  .sort((a, b) => b.words.length - a.words.length);

/** The rule as first written: every term at every position. */
function plainLayTerms(query: string) {
  const tokens = [...query.toLowerCase().matchAll(TOKEN)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  const taken = tokens.map(() => false);
  const matches: { at: number; lay: string; start: number; end: number; legal: string[]; norms: string[] }[] = [];
  for (const term of terms) {
    for (let i = 0; i + term.words.length <= tokens.length; i++) {
      const span = term.words.map((_, k) => i + k);
      if (span.some((k) => taken[k]) || !term.words.every((w, k) => tokens[i + k]!.word === w)) continue;
      for (const k of span) taken[k] = true;
      matches.push({ at: i, lay: term.lay, start: tokens[i]!.start, end: tokens[i + term.words.length - 1]!.end,
        legal: term.entry.legal, norms: term.entry.norms });
    }
  }
  return matches.sort((a, b) => a.at - b.at).map(({ at: _at, ...match }) => match);
}

test('every lay term alone, and every one inside a sentence, is matched as the plain rule matches it', () => {
  assert.ok(terms.length > 1_000);
  for (const term of terms) {
    assert.deepEqual(layTermsOf(term.lay), plainLayTerms(term.lay), term.lay);
    const sentence = `Mein ${term.lay}, was nun?`;
    assert.deepEqual(layTermsOf(sentence), plainLayTerms(sentence), sentence);
  }
});

test('queries of lay terms\' words overlapping each other match as the plain rule does (property)', () => {
  const words = [...new Set(terms.flatMap((term) => term.words))];
  const multiWord = terms.filter((term) => term.words.length > 1).map((term) => term.words.join(' '));
  const piece = fc.oneof(fc.constantFrom(...words), fc.constantFrom(...multiWord), fc.constantFrom('der', 'mich', 'Chef', '!'));
  fc.assert(fc.property(fc.array(piece, { minLength: 1, maxLength: 9 }), (pieces) => {
    const query = pieces.join(' ');
    assert.deepEqual(layTermsOf(query), plainLayTerms(query));
  }), { numRuns: 3_000, seed: 19 });
});

test('a term ending in the words another, longer term begins with: the longer one is taken, as the plain rule takes it', () => {
  let overlaps = 0;
  for (const shorter of terms) {
    for (const longer of terms) {
      if (longer.words.length <= shorter.words.length) continue;
      for (let k = 1; k < shorter.words.length; k++) {
        if (shorter.words.slice(-k).join(' ') !== longer.words.slice(0, k).join(' ')) continue;
        const query = [...shorter.words, ...longer.words.slice(k)].join(' '); // 'laden macht zu spät gegen die kündigung'
        assert.deepEqual(layTermsOf(query), plainLayTerms(query), query);
        overlaps++;
      }
    }
  }
  assert.ok(overlaps > 100, `${overlaps} overlapping pairs`);
});
