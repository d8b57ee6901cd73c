// The codec of decisions.text_zstd since Session 20: an LZ77 block in LZ4's sequence layout behind a small header,
// compressed and decompressed in JS. A result page decompresses 20 texts; Node's zstdDecompressSync cost each one a
// stream object and a zstd context (some 20-40 µs before any work) and its output in fresh memory (1-3 page faults a
// text at ~15 µs each on a VM like ours), while this decodes into one reused buffer: 2-4x faster on generated texts,
// ~1.5-2x on real ones, for texts about 1.2-1.3x zstd's size (bench/README, "Session 20").
//
// Layout: MAGIC, the text's UTF-8 length (LEB128), then sequences: a token byte (literal count in its high nibble,
// match length - 4 in its low; 15 means more bytes follow, each added, until one below 255), the literals, the match's
// distance back (2 bytes, little-endian) and its extra length. The last sequence has literals only.

/** The first bytes of a text in this codec (a zstd frame begins 28 b5 2f fd). */
export const LZ_MAGIC = Buffer.from('JLZ1', 'latin1');

const MIN_MATCH = 4;
const MAX_DISTANCE = 0xffff;
const HASH_BITS = 14;
/** A match never reaches the last bytes (LZ4's rule, kept: the last sequence ends with literals). */
const TAIL = 5;
/** A declared length beyond this is a damaged header, not a decision's text. */
const MAX_TEXT_BYTES = 256 * 1024 * 1024;
/** Output up to this size is decoded into the kept buffer; a larger text into its own. */
const KEPT_BYTES = 1024 * 1024;
/** Bytes an output buffer holds past the text's end: a match's copy writes up to 15 bytes past its end, literals 3. */
const SLACK = 16;
/** Literals up to this many are copied in words of 4 bytes (longer ones by one native copy). */
const WORD_LITERALS = 64;

/** The newest position of each hash, and for each position (modulo the window) the one before it with its hash. */
const heads = new Int32Array(1 << HASH_BITS);
const chain = new Int32Array(MAX_DISTANCE + 1);
/** Candidates tried per position: longer matches (fewer sequences to decode) at a bounded cost. */
const DEPTH = 8;
let kept = Buffer.allocUnsafe(64 * 1024);
let keptView = new DataView(kept.buffer, kept.byteOffset, kept.length);

/** Whether `stored` is in this codec. */
export const isLzText = (stored: Uint8Array): boolean =>
  stored.length >= LZ_MAGIC.length && stored[0] === LZ_MAGIC[0] && stored[1] === LZ_MAGIC[1] && stored[2] === LZ_MAGIC[2] && stored[3] === LZ_MAGIC[3];

/**
 * `text` compressed: matches of at least 4 bytes within 64 KB back, the longest of the last DEPTH positions with the
 * same hash of the next 4 bytes, one byte later where that one is longer (lazy matching).
 *
 * @example lzDecompressText(lzCompressText('Die Kündigung ist unwirksam.')) // 'Die Kündigung ist unwirksam.'
 */
export function lzCompressText(text: string): Buffer {
  const input = Buffer.from(text, 'utf8');
  const n = input.length;
  const out = Buffer.allocUnsafe(LZ_MAGIC.length + 5 + n + Math.ceil(n / 255) + 16);
  LZ_MAGIC.copy(out, 0);
  let op = writeLength(out, LZ_MAGIC.length, n);
  heads.fill(-1);
  const lastMatchStart = n - TAIL - MIN_MATCH;
  const hash = (at: number) => Math.imul(input[at] | (input[at + 1] << 8) | (input[at + 2] << 16) | (input[at + 3] << 24), 2654435761) >>> (32 - HASH_BITS);
  let inserted = 0;
  /** Positions up to `at` entered in the chains. */
  const insertUpTo = (at: number) => {
    for (; inserted <= at && inserted <= lastMatchStart; inserted++) {
      const slot = hash(inserted);
      chain[inserted & MAX_DISTANCE] = heads[slot];
      heads[slot] = inserted;
    }
  };
  // The longest match for `at` among the last DEPTH positions with its hash (the nearest of equals): [length, from].
  let bestFrom = 0;
  const longest = (at: number): number => {
    let best = 0;
    let candidate = heads[hash(at)];
    for (let tries = 0; tries < DEPTH && candidate >= 0 && candidate < at && at - candidate <= MAX_DISTANCE; tries++) {
      if (input[candidate + best] === input[at + best]) {
        let length = 0;
        while (at + length < n - TAIL && input[candidate + length] === input[at + length]) length++;
        if (length > best) {
          best = length;
          bestFrom = candidate;
        }
      }
      const next = chain[candidate & MAX_DISTANCE];
      if (next >= candidate) break;
      candidate = next;
    }
    return best >= MIN_MATCH ? best : 0;
  };
  let anchor = 0;
  let at = 0;
  let misses = 0;
  while (at <= lastMatchStart) {
    insertUpTo(at - 1);
    let length = longest(at);
    if (length === 0) {
      insertUpTo(at);
      // Where nothing repeats, look less often (LZ4's acceleration).
      at += 1 + (misses++ >> 6);
      continue;
    }
    misses = 0;
    let from = bestFrom;
    // Lazy: a longer match one byte on is worth a literal more.
    if (at + 1 <= lastMatchStart) {
      insertUpTo(at);
      const next = longest(at + 1);
      if (next > length) {
        at++;
        length = next;
        from = bestFrom;
      }
    }
    op = writeSequence(out, op, input, anchor, at, at - from, length);
    at += length;
    anchor = at;
  }
  op = writeSequence(out, op, input, anchor, n, 0, 0);
  // Memory of its own, not a slice of Node's shared pool (64 KB slabs in Node 24): a worker thread hands the value to
  // the importer's main thread, and a view is cloned with its whole buffer (bench/README, "Session 23").
  const stored = Buffer.allocUnsafeSlow(op);
  out.copy(stored, 0, 0, op);
  return stored;
}

/** Writes literals input[anchor, end) and, unless `length` is 0, a match of `length` bytes `distance` back. */
function writeSequence(out: Buffer, at: number, input: Buffer, anchor: number, end: number, distance: number, length: number): number {
  const literals = end - anchor;
  const extra = length - MIN_MATCH;
  let op = at;
  out[op++] = (Math.min(literals, 15) << 4) | (length === 0 ? 0 : Math.min(extra, 15));
  if (literals >= 15) op = writeRun(out, op, literals - 15);
  input.copy(out, op, anchor, end);
  op += literals;
  if (length === 0) return op;
  out[op++] = distance & 0xff;
  out[op++] = distance >> 8;
  return extra >= 15 ? writeRun(out, op, extra - 15) : op;
}

function writeRun(out: Buffer, at: number, value: number): number {
  let op = at;
  let rest = value;
  for (; rest >= 255; rest -= 255) out[op++] = 255;
  out[op++] = rest;
  return op;
}

function writeLength(out: Buffer, at: number, value: number): number {
  let op = at;
  let rest = value;
  for (; rest >= 0x80; rest = Math.floor(rest / 0x80)) out[op++] = (rest % 0x80) | 0x80;
  out[op++] = rest;
  return op;
}

/** The text of a value lzCompressText wrote; throws where its structure is damaged (cut short, a match reaching outside the text). */
export function lzDecompressText(stored: Uint8Array): string {
  if (!isLzText(stored)) throw damaged('no header');
  let ip = LZ_MAGIC.length;
  let size = 0;
  for (let scale = 1; ; scale *= 0x80) {
    const byte = stored[ip++];
    if (byte === undefined || scale > MAX_TEXT_BYTES) throw damaged('length');
    size += (byte & 0x7f) * scale;
    if (byte < 0x80) break;
  }
  if (size > MAX_TEXT_BYTES) throw damaged('length');
  if (size > KEPT_BYTES) {
    const own = Buffer.allocUnsafe(size + SLACK);
    return decode(stored, ip, own, new DataView(own.buffer, own.byteOffset, own.length), size);
  }
  if (kept.length < size + SLACK) {
    kept = Buffer.allocUnsafe(2 ** Math.ceil(Math.log2(size + SLACK)));
    keptView = new DataView(kept.buffer, kept.byteOffset, kept.length);
  }
  return decode(stored, ip, kept, keptView, size);
}

/**
 * Decodes the sequences from `start` into `out` (`view` over it; SLACK bytes past `size`). Copies go in words of 4
 * bytes (DataView reads and writes, unaligned), a match's four at a time: a word reads bytes at least `distance` >= 4
 * behind those it writes, all of them written before (by an earlier word where the match overlaps itself); bytes
 * written past a copy's end are written again by what follows or fall into the slack. Byte by byte (Session 20) a
 * page decision's text of 14 KB took 1.4x as long (bench/README, "Session 22").
 */
function decode(src: Uint8Array, start: number, out: Buffer, view: DataView, size: number): string {
  const input = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const end = src.length;
  let ip = start;
  let op = 0;
  for (;;) {
    const token = src[ip++];
    if (token === undefined) throw damaged('sequence');
    let literals = token >> 4;
    if (literals === 15) {
      let byte;
      do {
        byte = src[ip++];
        literals += byte;
      } while (byte === 255);
    }
    // Negated comparisons: a length read past the end is NaN, and fails them.
    if (!(ip + literals <= end && op + literals <= size)) throw damaged('literals');
    if (literals <= WORD_LITERALS && ip + literals + 4 <= end) {
      for (let k = 0; k < literals; k += 4) view.setUint32(op + k, input.getUint32(ip + k, true), true);
    } else if (literals < 16) {
      for (let k = 0; k < literals; k++) out[op + k] = src[ip + k];
    } else {
      out.set(src.subarray(ip, ip + literals), op);
    }
    ip += literals;
    op += literals;
    if (ip === end) break;
    const distance = src[ip] | (src[ip + 1] << 8);
    ip += 2;
    let length = (token & 15) + MIN_MATCH;
    if ((token & 15) === 15) {
      let byte;
      do {
        byte = src[ip++];
        length += byte;
      } while (byte === 255);
    }
    if (!(ip <= end && distance >= 1 && distance <= op && op + length <= size)) throw damaged('match');
    let from = op - distance;
    const stop = op + length;
    if (distance >= 4) {
      for (; op < stop; op += 16, from += 16) {
        view.setUint32(op, view.getUint32(from, true), true);
        view.setUint32(op + 4, view.getUint32(from + 4, true), true);
        view.setUint32(op + 8, view.getUint32(from + 8, true), true);
        view.setUint32(op + 12, view.getUint32(from + 12, true), true);
      }
    } else {
      // A run of 1 to 3 bytes repeating itself: byte by byte, as LZ77 means it.
      for (; op < stop;) out[op++] = out[from++];
    }
    op = stop;
  }
  if (op !== size) throw damaged('length');
  return out.toString('utf8', 0, size);
}

const damaged = (what: string) => new Error(`stored text is damaged (${what})`);
