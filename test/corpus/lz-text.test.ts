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

/** The decoder as Session 20 wrote it, byte by byte (LZ77 as it reads): what the word copies must equal. */
function bytewiseDecode(stored: Uint8Array): Buffer {
  let ip = LZ_MAGIC.length;
  let size = 0;
  for (let scale = 1; ; scale *= 0x80) {
    const byte = stored[ip++];
    size += (byte & 0x7f) * scale;
    if (byte < 0x80) break;
  }
  const out = Buffer.alloc(size);
  let op = 0;
  const run = (value: number) => {
    let total = value;
    if (value === 15) for (let byte = 255; byte === 255;) total += (byte = stored[ip++]);
    return total;
  };
  for (;;) {
    const token = stored[ip++];
    const literals = run(token >> 4);
    for (let k = 0; k < literals; k++) out[op++] = stored[ip++];
    if (ip === stored.length) return out;
    const distance = stored[ip] | (stored[ip + 1] << 8);
    ip += 2;
    const length = run(token & 15) + 4;
    for (let k = 0; k < length; k++, op++) out[op] = out[op - distance];
  }
}

/** A value of sequences written by hand: [literal bytes, distance, match length] each, then the last literals. */
function handWritten(sequences: [Buffer, number, number][], last: Buffer): Buffer {
  const bytes: number[] = [];
  const extra = (value: number) => {
    let rest = value;
    for (; rest >= 255; rest -= 255) bytes.push(255);
    bytes.push(rest);
  };
  let size = last.length;
  for (const [literals, distance, length] of sequences) {
    bytes.push((Math.min(literals.length, 15) << 4) | Math.min(length - 4, 15));
    if (literals.length >= 15) extra(literals.length - 15);
    bytes.push(...literals, distance & 0xff, distance >> 8);
    if (length - 4 >= 15) extra(length - 19);
    size += literals.length + length;
  }
  bytes.push(Math.min(last.length, 15) << 4);
  if (last.length >= 15) extra(last.length - 15);
  bytes.push(...last);
  const header: number[] = [];
  for (let rest = size; ; rest = Math.floor(rest / 0x80)) {
    header.push(rest >= 0x80 ? (rest % 0x80) | 0x80 : rest);
    if (rest < 0x80) break;
  }
  return Buffer.concat([LZ_MAGIC, Buffer.from(header), Buffer.from(bytes)]);
}

test('lz text: matches of every distance and length, overlapping or not, and literals of every length, decode as LZ77 reads them', () => {
  // The decoder copies in words where the distance allows (Session 22): every distance from 1 to 40 (a run, a word
  // repeating itself, the word sizes' edges) with lengths 4 to 70, each after literals of 0 to 70 bytes, at the
  // text's end and before more, hold it to the byte-by-byte reading.
  // ASCII only: every byte its own character, so the strings differ wherever the bytes do.
  const letters = Buffer.from('Die Kuendigung ist unwirksam, Par. 573 BGB; Rn. 12 (Eigenbedarf) abcdefghijklmnopqrstuvwxyz0123456789', 'latin1');
  const literalsOf = (count: number, seed: number) => Buffer.from(Array.from({ length: count }, (_, k) => letters[(seed * 7 + k * 13) % letters.length]));
  let cases = 0;
  for (let distance = 1; distance <= 40; distance++) {
    for (const length of [4, 5, 7, 8, 9, 15, 16, 17, 18, 19, 20, 31, 32, 33, 47, 64, 70, 274, 275]) {
      for (const before of [0, 1, 3, 4, 5, 15, 16, 33, 70]) {
        const lead = literalsOf(Math.max(distance, 3) + before, distance + length);
        for (const last of [0, 1, 3, 4, 17]) {
          const stored = handWritten([[lead, distance, length], [literalsOf(before, length), distance, Math.max(4, length >> 1)]], literalsOf(last, before));
          const expected = bytewiseDecode(stored);
          assert.equal(lzDecompressText(stored), expected.toString('utf8'), `distance ${distance}, length ${length}, literals ${before}, last ${last}`);
          cases++;
        }
      }
    }
  }
  assert.ok(cases > 30_000);
  // A text too large for the kept buffer, decoded into its own, ending with a match whose last words reach furthest
  // past its end (and an empty last sequence).
  for (const tail of [4, 5, 16, 17, 18, 19, 20]) {
    const stored = handWritten([[literalsOf(100, 1), 100, 1_100_000], [literalsOf(3, 2), 30, tail]], Buffer.alloc(0));
    assert.equal(lzDecompressText(stored), bytewiseDecode(stored).toString('latin1'), `large, last match ${tail}`);
  }
});

test('a compressed text holds memory of its own, not a slice of a shared pool (a worker hands it on whole)', () => {
  for (const bytes of [10, 3_000, 20_000]) {
    const stored = lzCompressText(textOf(bytes));
    assert.equal(stored.buffer.byteLength, stored.length, `${bytes} bytes`);
    assert.equal(lzDecompressText(stored), textOf(bytes));
  }
});
