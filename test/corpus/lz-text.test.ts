// The LZ codec of stored decision texts (src/corpus/lz-text.ts, Session 20): every text comes back whole whatever its
// size, characters and repetitions, decoded into the kept buffer or its own; a damaged value throws; texts an older
// juralite wrote as zstd frames are still read by decompressText.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants, zstdCompressSync } from 'node:zlib';
import fc from 'fast-check';
import { isLzText, LZ_MAGIC, lzCompressText, lzDecompressText } from '../../src/corpus/lz-text.ts';
import { compressText, decompressText } from '../../src/corpus/stored-text.ts';

const sentence = 'Rn. 12 Die Klägerin begehrt Schadensersatz wegen „Verletzung“ der Verkehrssicherungspflicht (§ 823 BGB) 𝔘mlaute. ';
/** Text of about `bytes` UTF-8 bytes: repeated sentences with a counter, so matches of every length and distance occur. */
const textOf = (bytes: number) => Array.from({ length: Math.ceil(bytes / 100) }, (_, i) => (i % 7 === 0 ? `${i} ` : '') + sentence.slice(i % 40))
  .join('').slice(0, bytes);

test('lz text: every size comes back whole, small and large, in any order (the kept buffer reused and outgrown)', () => {
  const sizes = [0, 1, 4, 8, 9, 12, 13, 17, 100, 255, 4_096, 65_535, 65_536, 70_000, 300_000, 1_048_576, 1_500_000, 10];
  for (const size of sizes) {
    const text = textOf(size);
    const stored = lzCompressText(text);
    assert.ok(isLzText(stored), `${size}`);
    assert.equal(lzDecompressText(stored), text, `${size}`);
    assert.equal(decompressText(compressText(text)), text, `${size}`);
  }
  // Runs (a match overlapping itself), a text that never repeats, and a distance beyond the 64 KB window.
  const runs = `${'a'.repeat(100_000)}b${'ab'.repeat(40_000)}${'§'.repeat(3)}`;
  const unique = Array.from({ length: 30_000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20_000))).join('');
  const far = `${textOf(2_000)}${unique}${textOf(2_000)}`;
  for (const text of [runs, unique, far]) assert.equal(lzDecompressText(lzCompressText(text)), text);
  assert.ok(lzCompressText(runs).length < 2_000, 'a run compresses');
  assert.ok(lzCompressText(textOf(100_000)).length < 40_000, 'repeated sentences compress');
});

test('lz text: any string comes back whole (generated)', () => {
  const texts = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 3_000 }), fc.string({ unit: 'binary', maxLength: 500 }),
    fc.array(fc.constantFrom('Kündigung ', 'Miete', 'ä', 'ß', '\n', '𝔘', ' ', 'Rn. 1', 'aaaa'), { maxLength: 2_000 }).map((parts) => parts.join('')));
  fc.assert(fc.property(texts, (text) => lzDecompressText(lzCompressText(text)) === text), { numRuns: 200 });
});

test('lz text: a damaged value throws, never a text cut short', () => {
  const text = textOf(5_000);
  const stored = lzCompressText(text);
  for (let length = 0; length < stored.length; length++) {
    assert.throws(() => lzDecompressText(stored.subarray(0, length)), /damaged/u, `cut at ${length}`);
  }
  // Bytes added at the end are read as another sequence: its match reaches outside the text.
  assert.throws(() => lzDecompressText(Buffer.concat([stored, Buffer.from([0x0f, 0xff, 0xff])])), /damaged/u);
  // A length beyond any text, and a header of another codec.
  assert.throws(() => lzDecompressText(Buffer.concat([LZ_MAGIC, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7f])])), /damaged/u);
  assert.throws(() => lzDecompressText(Buffer.from('not lz at all')), /damaged/u);
  // A match pointing before the text's start.
  assert.throws(() => lzDecompressText(Buffer.concat([LZ_MAGIC, Buffer.from([20, 0x10, 0x61, 9, 0, 0x00])])), /damaged/u);
});

test('lz text: zstd frames an older juralite wrote are still read', () => {
  for (const size of [0, 300, 20_000, 200_000]) {
    const text = textOf(size);
    const frame = zstdCompressSync(Buffer.from(text, 'utf8'), { params: { [constants.ZSTD_c_compressionLevel]: 3 } });
    assert.equal(isLzText(frame), false);
    assert.equal(decompressText(frame), text, `${size}`);
  }
});
