// What a ZIP declares about itself, read from its central directory alone (no member is inflated): the member
// names and their declared uncompressed sizes. Enough to tell a DOCX from other ZIPs and to refuse a zip bomb
// before any parser inflates it. The directory is read by the importer's zip reader (src/ingest/zip.ts).
import { open } from 'node:fs/promises';
import { Zip64Unsupported, zipEntries } from '../ingest/zip.ts';

export interface ZipListing {
  names: string[];
  /** Sum of the declared uncompressed sizes; Infinity when a member needs ZIP64 (over 4 GB: no document does). */
  declaredBytes: number;
}

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

/**
 * The central directory of the ZIP at `path`, or null when it cannot be read (truncated or corrupt: the extraction
 * then reports the file unreadable).
 *
 * @example (await readZipListing('brief.docx'))?.declaredBytes // 312_904
 */
export async function readZipListing(path: string): Promise<ZipListing | null> {
  try {
    const entries = await zipEntries(path);
    return {
      names: entries.map((entry) => entry.name),
      declaredBytes: entries.reduce((sum, entry) => sum + (entry.size === 0xffffffff ? Infinity : entry.size), 0),
    };
  } catch (error) {
    return error instanceof Zip64Unsupported ? { names: [], declaredBytes: Infinity } : null;
  }
}
