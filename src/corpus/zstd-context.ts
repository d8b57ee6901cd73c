// Decompression of stored texts through one zstd context kept for the process. zstdDecompressSync builds a stream
// object and a native zstd context on every call, which costs more than decompressing a generated decision's 11 KB
// itself (bench/README, Session 18: 20 texts of a result page 1.28 -> 0.84 ms p50). The kept context is driven through
// the native handle node:zlib's own synchronous path drives (`_handle.writeSync`, `_writeState`), which is no public
// API; so the public call stays the answer wherever anything differs: no such handle (another Node), a frame that
// does not declare its size, an output other than that size, an error (the stream is destroyed, and replaced).
import { createZstdDecompress, zstdDecompressSync } from 'node:zlib';

/** The native handle as node:zlib's processChunkSync calls it. */
interface ZstdHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
}

interface KeptContext { stream: { destroyed: boolean }; handle: ZstdHandle; state: Uint32Array; finish: number }

/** Larger frames take the public call (a corrupt header must not make us allocate its size). */
const MAX_DECLARED = 64 * 1024 * 1024;

let kept: KeptContext | null | undefined;

/** The kept context, made anew after an error destroyed it; null where node:zlib has no such handle. */
function keptContext(): KeptContext | null {
  if (kept === undefined || (kept !== null && kept.stream.destroyed)) {
    const stream = createZstdDecompress() as unknown as { destroyed: boolean; _handle?: ZstdHandle; _writeState?: Uint32Array; _finishFlushFlag?: number };
    // An error destroys the stream, which then emits it: the public call reports it to the caller instead.
    (stream as unknown as NodeJS.EventEmitter).on('error', () => {});
    const usable = typeof stream._handle?.writeSync === 'function' && typeof stream._handle.reset === 'function'
      && stream._writeState instanceof Uint32Array && typeof stream._finishFlushFlag === 'number';
    kept = usable ? { stream, handle: stream._handle!, state: stream._writeState!, finish: stream._finishFlushFlag! } : null;
  }
  return kept;
}

/**
 * The decompressed size a zstd frame's header declares (RFC 8878, 3.1.1.1), or null: not a zstd frame, or no size
 * declared (node:zlib's zstdCompressSync declares it: it passes the whole input at once).
 */
export function declaredSize(frame: Uint8Array): number | null {
  if (frame.length < 6 || frame[0] !== 0x28 || frame[1] !== 0xb5 || frame[2] !== 0x2f || frame[3] !== 0xfd) return null;
  const descriptor = frame[4];
  const sizeFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const at = 5 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][descriptor & 3];
  const bytes = sizeFlag === 0 ? singleSegment : [0, 2, 4, 8][sizeFlag];
  if (bytes === 0 || frame.length < at + bytes) return null;
  let size = 0;
  for (let index = bytes - 1; index >= 0; index--) size = size * 256 + frame[at + index];
  return bytes === 2 ? size + 256 : size;
}

/**
 * The bytes a stored text's zstd frame holds, as zstdDecompressSync gives them (its errors included).
 *
 * @example decompressed(compressText('Gründe')).toString('utf8') // 'Gründe'
 */
export function decompressed(stored: Uint8Array): Buffer {
  const size = declaredSize(stored);
  const context = size === null || size > MAX_DECLARED ? null : keptContext();
  if (context && size !== null) {
    // One byte more than declared: a frame that decodes to more does not fit, and takes the public call.
    const out = Buffer.allocUnsafe(size + 1);
    context.handle.writeSync(context.finish, stored, 0, stored.length, out, 0, out.length);
    if (!context.stream.destroyed) {
      const [outLeft, inLeft] = context.state;
      context.handle.reset();
      if (outLeft === 1 && inLeft === 0) return out.subarray(0, size);
    }
  }
  // Node's own answer, or its error.
  return zstdDecompressSync(stored);
}
