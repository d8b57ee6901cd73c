/** A decision's stored text: compressed and decompressed, the size its zstd frame states. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants, zstdCompressSync } from 'node:zlib';
import { compressText, decompressText, frameContentSize } from '../../src/corpus/stored-text.ts';

// Sizes around each width of the frame's size field (1, 2, 4 bytes) and the default output chunk (16 KB).
const SIZES = [0, 1, 255, 256, 257, 16_383, 16_384, 16_385, 65_791, 65_792, 200_000, 1_500_000];
const textOf = (bytes: number) => 'Rn. 1 Die Klägerin begehrt 𝔘mlaute. '.repeat(Math.ceil(bytes / 30)).slice(0, bytes);

test('frameContentSize reads the decompressed size every stored text states', () => {
  for (const size of SIZES) {
    const text = textOf(size);
    assert.equal(frameContentSize(compressText(text)), Buffer.byteLength(text, 'utf8'), `${size}`);
  }
});

test('decompressText gives back every text whole, whatever its size', () => {
  for (const size of SIZES) {
    const text = textOf(size);
    assert.equal(decompressText(compressText(text)), text, `${size}`);
  }
});

test('a frame stating no size, or bytes that are no frame: no size, and such a frame still decompresses', () => {
  const text = textOf(40_000);
  const sizeless = zstdCompressSync(Buffer.from(text), { params: { [constants.ZSTD_c_contentSizeFlag]: 0 } });
  assert.equal(frameContentSize(sizeless), undefined);
  assert.equal(decompressText(sizeless), text);
  assert.equal(frameContentSize(Buffer.from('not a zstd frame')), undefined);
  assert.equal(frameContentSize(new Uint8Array(0)), undefined);
});
