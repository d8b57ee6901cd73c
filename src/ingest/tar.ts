// A streaming tar reader (ustar, pax and GNU long names): entries are read one at a time from a stream (usually
// node:zlib's gunzip), so a tarball of any size is read with memory bounded by its largest member.
import type { Readable } from 'node:stream';

export interface TarEntry {
  name: string;
  data: Buffer;
}

/** Largest member buffered; bigger members are skipped with an error. */
export const TAR_MEMBER_LIMIT = 512 * 1024 * 1024;

class ByteReader {
  private chunks: Buffer[] = [];
  private length = 0;
  private iterator: AsyncIterator<Buffer>;
  private ended = false;

  constructor(stream: Readable | AsyncIterable<Buffer>) {
    this.iterator = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<void> {
    while (this.length < n && !this.ended) {
      const { value, done } = await this.iterator.next();
      if (done) {
        this.ended = true;
        break;
      }
      const buf = Buffer.isBuffer(value) ? value : Buffer.from(value);
      this.chunks.push(buf);
      this.length += buf.length;
    }
  }

  /** Exactly n bytes, or fewer at the end of the stream. */
  async read(n: number): Promise<Buffer> {
    await this.fill(n);
    const take = Math.min(n, this.length);
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.length);
    const out = Buffer.from(all.subarray(0, take));
    const rest = all.subarray(take);
    this.chunks = rest.length ? [rest] : [];
    this.length = rest.length;
    return out;
  }

  /** Discards n bytes without keeping them. */
  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) {
      await this.fill(Math.min(left, 1 << 20));
      if (this.length === 0) return;
      const take = Math.min(left, this.length);
      await this.read(take);
      left -= take;
    }
  }
}

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

function octal(header: Buffer, offset: number, length: number): number {
  const raw = header.subarray(offset, offset + length);
  if (raw[0] & 0x80) {
    // GNU base-256 for large sizes.
    let n = 0;
    for (let i = 1; i < raw.length; i++) n = n * 256 + raw[i];
    return n;
  }
  const s = field(header, offset, length).trim();
  return s === '' ? 0 : Number.parseInt(s, 8);
}

function paxPath(data: Buffer): string | undefined {
  const text = data.toString('utf8');
  for (const m of text.matchAll(/\d+ path=([^\n]*)\n/gu)) return m[1];
  return undefined;
}

/** Yields the regular files of a tar stream in order. */
export async function* tarEntries(stream: Readable | AsyncIterable<Buffer>): AsyncGenerator<TarEntry | { name: string; error: string }> {
  const r = new ByteReader(stream);
  let longName: string | undefined;
  for (;;) {
    const header = await r.read(512);
    if (header.length < 512) return;
    if (header.every((b) => b === 0)) continue;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 48);
    const prefix = field(header, 345, 155);
    let name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    const padded = Math.ceil(size / 512) * 512;
    if (type === 'L' || type === 'x') {
      const data = await r.read(size);
      await r.skip(padded - size);
      longName = type === 'L' ? data.toString('utf8').replace(/\0+$/u, '') : paxPath(data);
      continue;
    }
    if (type !== '0' && type !== '7') {
      await r.skip(padded);
      continue;
    }
    if (size > TAR_MEMBER_LIMIT) {
      await r.skip(padded);
      yield { name, error: `member larger than ${TAR_MEMBER_LIMIT} bytes` };
      continue;
    }
    const data = await r.read(size);
    if (data.length < size) {
      yield { name, error: 'truncated tar archive' };
      return;
    }
    await r.skip(padded - size);
    name = name.replace(/^\.\//u, '');
    yield { name, data };
  }
}
