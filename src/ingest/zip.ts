// The one ZIP reader (imports, and the upload check that refuses zip bombs): the central directory tells where each
// member is and how big it says it is; members are inflated one at a time (node:zlib, raw deflate), each capped in
// size, so a zip of any size is read with bounded memory.
import { open, type FileHandle } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';

export interface ZipMember {
  name: string;
  data: Buffer;
}

/** Largest member inflated (a guard against zip bombs); bigger members are reported as errors. */
export const ZIP_MEMBER_LIMIT = 512 * 1024 * 1024;

/** ZIP64 (over 65,535 members or 4 GB): no legal source or document needs it. */
export class Zip64Unsupported extends Error {
  constructor() {
    super('ZIP64 archives are not supported');
  }
}

interface Reader {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

function bufferReader(buf: Buffer): Reader {
  return {
    size: buf.length,
    read: async (offset, length) => buf.subarray(offset, Math.min(buf.length, offset + length)),
    close: async () => {},
  };
}

async function fileReader(path: string): Promise<Reader> {
  const fh: FileHandle = await open(path, 'r');
  const { size } = await fh.stat();
  return {
    size,
    async read(offset, length) {
      const out = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      let done = 0;
      while (done < out.length) {
        const { bytesRead } = await fh.read(out, done, out.length - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return out.subarray(0, done);
    },
    close: () => fh.close(),
  };
}

/** A member as the central directory declares it. */
export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

async function centralDirectory(r: Reader): Promise<ZipEntry[]> {
  const tailLength = Math.min(r.size, 65557);
  const tail = await r.read(r.size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || count === 0xffff) throw new Zip64Unsupported();
  const cd = await r.read(cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    const compressedSize = cd.readUInt32LE(p + 20);
    const size = cd.readUInt32LE(p + 24);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    const localOffset = cd.readUInt32LE(p + 42);
    const rawName = cd.subarray(p + 46, p + 46 + nameLength);
    // Bit 11: UTF-8 names; otherwise CP437, which for the ASCII names of legal sources reads the same.
    const name = flags & 0x800 ? rawName.toString('utf8') : rawName.toString('latin1');
    entries.push({ name, method, flags, compressedSize, size, localOffset });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

async function readMember(r: Reader, e: ZipEntry): Promise<Buffer> {
  if (e.flags & 0x1) throw new Error(`${e.name}: encrypted zip member`);
  if (e.size > ZIP_MEMBER_LIMIT) throw new Error(`${e.name}: member larger than ${ZIP_MEMBER_LIMIT} bytes`);
  const local = await r.read(e.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) throw new Error(`${e.name}: corrupt local header`);
  const dataOffset = e.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const raw = await r.read(dataOffset, e.compressedSize);
  if (e.method === 0) return raw;
  if (e.method === 8) return inflateRawSync(raw, { maxOutputLength: Math.max(e.size, 1) });
  throw new Error(`${e.name}: unsupported compression method ${e.method}`);
}

/**
 * The central directory of the zip file at `path`: names and declared sizes, nothing inflated. Throws on a file that
 * is no zip or a corrupt directory, Zip64Unsupported on ZIP64.
 */
export async function zipEntries(path: string): Promise<ZipEntry[]> {
  const r = await fileReader(path);
  try {
    return await centralDirectory(r);
  } finally {
    await r.close();
  }
}

/** Yields the file members of a zip (a path, or a buffer for nested archives), directories skipped. */
export async function* zipMembers(source: string | Buffer): AsyncGenerator<ZipMember | { name: string; error: string }> {
  const r = typeof source === 'string' ? await fileReader(source) : bufferReader(source);
  try {
    const entries = await centralDirectory(r);
    for (const e of entries) {
      if (e.name.endsWith('/') || e.name.startsWith('__MACOSX/')) continue;
      try {
        yield { name: e.name, data: await readMember(r, e) };
      } catch (error) {
        yield { name: e.name, error: (error as Error).message };
      }
    }
  } finally {
    await r.close();
  }
}

export function isZip(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;
}
