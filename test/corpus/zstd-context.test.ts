// Stored texts decompressed through the kept zstd context (src/corpus/zstd-context.ts) give what node:zlib's
// zstdDecompressSync gives, bytes or error, for every frame: sizes from empty to beyond a stream chunk, frames that
// declare no size, corrupt, truncated or followed by more data, not zstd at all; and an error leaves the next text
// decompressed right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createZstdCompress, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { compressText, decompressText } from '../../src/corpus/stored-text.ts';
import { declaredSize, decompressed } from '../../src/corpus/zstd-context.ts';

const outcome = (work: () => Buffer) => {
  try {
    return { bytes: work().toString('hex') };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

/** A frame written by a stream in pieces: zstd does not know its size in advance and declares none. */
async function streamed(text: string): Promise<Buffer> {
  const stream = createZstdCompress();
  const parts: Buffer[] = [];
  stream.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (let at = 0; at < text.length; at += 1000) stream.write(text.slice(at, at + 1000));
  stream.end();
  await ended;
  return Buffer.concat(parts);
}

test('zstd context: what zstdDecompressSync gives, bytes or error, for every kind of frame', async () => {
  const texts = ['', 'a', 'Gründe: § 573 BGB, 𝔎ündigung 😀', 'Die Kündigung des Mietverhältnisses. '.repeat(300),
    Array.from({ length: 9000 }, (_, i) => `Rn. ${i} Wohnraum ${(i * 7919) % 1000}`).join('\n')];
  const frames: [string, Buffer][] = [];
  for (const text of texts) {
    const frame = compressText(text);
    assert.equal(declaredSize(frame), Buffer.byteLength(text), 'the size is declared');
    assert.equal(decompressText(frame), text);
    frames.push([`${text.length} characters`, frame]);
    frames.push([`${text.length} characters, truncated`, frame.subarray(0, Math.max(1, frame.length - 3))]);
    const corrupt = Buffer.from(frame);
    corrupt[Math.floor(corrupt.length / 2)] ^= 0x5a;
    frames.push([`${text.length} characters, corrupt`, corrupt]);
    frames.push([`${text.length} characters, then another frame`, Buffer.concat([frame, zstdCompressSync(Buffer.from('mehr'))])]);
  }
  const large = texts.at(-1)!;
  const undeclared = await streamed(large);
  assert.equal(declaredSize(undeclared), null);
  frames.push(['no size declared', undeclared], ['not zstd', Buffer.from('plain text')], ['empty', Buffer.alloc(0)]);
  const good = compressText(texts[3]);
  for (const [name, frame] of frames) {
    assert.deepEqual(outcome(() => decompressed(frame)), outcome(() => zstdDecompressSync(frame)), name);
    // Whatever the frame before did to the kept context, the next text is read right.
    assert.equal(decompressText(good), texts[3], `after: ${name}`);
  }
  assert.ok(frames.some(([name, frame]) => name.endsWith('corrupt') && 'error' in outcome(() => zstdDecompressSync(frame))), 'an error was met');
});
