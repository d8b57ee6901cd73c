// What a ZIP declares about itself, read from its central directory alone (no member is inflated): the member
// names and their declared uncompressed sizes. Enough to tell a DOCX from other ZIPs and to refuse a zip bomb
// before any parser inflates it.
import { open } from 'node:fs/promises';

export interface ZipListing {
  names: string[];
  /** Sum of the declared uncompressed sizes; Infinity when a member needs ZIP64 (over 4 GB: no document does). */
  declaredBytes: number;
}

const END_RECORD = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
/** The end record (22 bytes) plus the longest comment it may carry. */
const TAIL = 22 + 0xffff;
/** 10,000 entries with long names; a document has a few dozen. */
const DIRECTORY_LIMIT = 4 * 1024 * 1024;

/** Up to `length` bytes of the file at `path` from `position` (fewer at its end). */
export async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

function findEndRecord(tail: Buffer): number {
  for (let at = tail.length - 22; at >= 0; at--) if (tail.readUInt32LE(at) === END_RECORD) return at;
  return -1;
}

/**
 * The central directory of the ZIP at `path` (of `size` bytes), or null when it cannot be read (truncated or
 * corrupt: the extraction then reports the file unreadable).
 *
 * @example (await readZipListing('brief.docx', 48213))?.declaredBytes // 312_904
 */
export async function readZipListing(path: string, size: number): Promise<ZipListing | null> {
  const tailStart = Math.max(0, size - TAIL);
  const tail = await readAt(path, tailStart, size - tailStart);
  const end = findEndRecord(tail);
  if (end < 0) return null;
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) return { names: [], declaredBytes: Infinity };
  if (directorySize > DIRECTORY_LIMIT || directoryOffset + directorySize > size) return null;
  const directory = await readAt(path, directoryOffset, directorySize);
  const names: string[] = [];
  let declaredBytes = 0;
  let at = 0;
  for (let index = 0; index < count; index++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL_ENTRY) return null;
    const uncompressed = directory.readUInt32LE(at + 24);
    const nameLength = directory.readUInt16LE(at + 28);
    declaredBytes += uncompressed === 0xffffffff ? Infinity : uncompressed;
    names.push(directory.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  return { names, declaredBytes };
}
