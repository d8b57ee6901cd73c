import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codePointIndexer, codePointLength, sliceCodePoints, utf16Index } from '../../src/text/code-points.ts';

// The reference: Array.from splits a string into code points (a lone surrogate is one of them).
const points = (text: string) => Array.from(text);

const SAMPLES = [
  '',
  'Gründe: § 573 BGB',
  'Rn. 12 𝔄 Fraktur und 😀 Emoji',
  'lone high \ud800 and lone low \udc00 surrogates',
  '𝔄𝔅𝔆',
];

test('code point length, index and slice agree with Array.from, with and without astral characters', () => {
  for (const text of SAMPLES) {
    const cps = points(text);
    assert.equal(codePointLength(text), cps.length, text);
    for (let offset = 0; offset <= cps.length + 2; offset++) {
      assert.equal(utf16Index(text, offset), cps.slice(0, offset).join('').length, `${text} @${offset}`);
      assert.equal(sliceCodePoints(text, offset), cps.slice(offset).join(''), `${text} [${offset}:]`);
      assert.equal(sliceCodePoints(text, 0, offset), cps.slice(0, offset).join(''), `${text} [:${offset}]`);
    }
  }
});

test('utf16Index clamps negative offsets to the start', () => {
  assert.equal(utf16Index('abc', -3), 0);
  assert.equal(utf16Index('a😀', -1), 0);
});

test('codePointIndexer maps UTF-16 indices to code point offsets', () => {
  const text = 'a😀b';
  const at = codePointIndexer(text);
  assert.deepEqual([0, 1, 3, 4].map(at), [0, 1, 2, 3]);
  assert.equal(codePointIndexer('plain')(3), 3);
});
