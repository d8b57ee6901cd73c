// What a result page reads of a decision besides its row and text, held in the row itself (decisions.page_parts,
// Session 19): its chunks' spans and its printed Randnummern, the same rows as row_chunks and row_randnummern, packed
// in a few hundred bytes. A page of 20 new decisions then reads 20 rows instead of also descending two more b-trees per
// decision, whose pages were most of what a page of decisions not read before waited for (bench/README "Session 19").
// row_chunks and row_randnummern stay what everything else reads; the packed copy is written beside them by the
// importer and is trusted only while the decision's content_hash is the one it was packed with (an older juralite
// re-importing the decision leaves it stale, and the page then reads the tables).
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';

/** A chunk's columns as row_chunks holds them. */
export interface PartChunk { id: number; section: string | null; rn_from: number | null; rn_to: number | null; start_offset: number; end_offset: number }
/** A printed Randnummer as row_randnummern holds it. */
export interface PartRandnummer { rn: number; start_offset: number; end_offset: number }
/** A decision's chunks and Randnummern, each in position order. */
export interface PageParts { chunks: PartChunk[]; randnummern: PartRandnummer[] }

const FORMAT = 1;
/** Bytes of the content hash (hex) kept as the fingerprint. */
const FINGERPRINT_BYTES = 8;

/**
 * The packed form of a decision's parts, for the decision whose content_hash is `contentHash`.
 *
 * @example encodePageParts(row.content_hash, { chunks, randnummern })
 */
export function encodePageParts(contentHash: string, parts: PageParts): Buffer {
  const out: number[] = [FORMAT, ...fingerprint(contentHash)];
  const sections = [...new Set(parts.chunks.map((chunk) => chunk.section).filter((name) => name !== null))];
  const sectionIndex = new Map(sections.map((name, index) => [name, index + 1]));
  unsigned(out, sections.length);
  for (const name of sections) {
    const bytes = Buffer.from(name, 'utf8');
    unsigned(out, bytes.length);
    out.push(...bytes);
  }
  unsigned(out, parts.chunks.length);
  let id = 0;
  let end = 0;
  for (const chunk of parts.chunks) {
    signed(out, chunk.id - id);
    unsigned(out, chunk.section === null ? 0 : sectionIndex.get(chunk.section)!);
    nullable(out, chunk.rn_from);
    nullable(out, chunk.rn_to);
    signed(out, chunk.start_offset - end);
    signed(out, chunk.end_offset - chunk.start_offset);
    id = chunk.id;
    end = chunk.end_offset;
  }
  unsigned(out, parts.randnummern.length);
  let rn = 0;
  end = 0;
  for (const paragraph of parts.randnummern) {
    signed(out, paragraph.rn - rn);
    signed(out, paragraph.start_offset - end);
    signed(out, paragraph.end_offset - paragraph.start_offset);
    rn = paragraph.rn;
    end = paragraph.end_offset;
  }
  return Buffer.from(out);
}

/**
 * The parts packed in `packed`, or undefined where they cannot be trusted: none packed, packed for another content
 * hash (the decision was written again without them), or in a format this code does not know.
 */
export function decodePageParts(packed: Uint8Array | null, contentHash: string): PageParts | undefined {
  if (!packed || packed.length < 1 + FINGERPRINT_BYTES || packed[0] !== FORMAT) return undefined;
  for (let i = 0; i < FINGERPRINT_BYTES; i++) if (packed[1 + i] !== fingerprintByte(contentHash, i)) return undefined;
  try {
    return unpack(packed);
  } catch {
    return undefined;
  }
}

function unpack(packed: Uint8Array): PageParts {
  const reader = new Reader(packed, 1 + FINGERPRINT_BYTES);
  const sections: (string | null)[] = [null];
  for (let count = reader.unsigned(); count > 0; count--) {
    const length = reader.unsigned();
    sections.push(sectionName(packed, reader.at, reader.at + length));
    reader.at += length;
  }
  const chunks: PartChunk[] = [];
  let id = 0;
  let end = 0;
  for (let count = reader.unsigned(); count > 0; count--) {
    id += reader.signed();
    const section = sections[reader.unsigned()] ?? null;
    const rnFrom = reader.nullable();
    const rnTo = reader.nullable();
    const start = end + reader.signed();
    end = start + reader.signed();
    chunks.push({ id, section, rn_from: rnFrom, rn_to: rnTo, start_offset: start, end_offset: end });
  }
  const randnummern: PartRandnummer[] = [];
  let rn = 0;
  end = 0;
  for (let count = reader.unsigned(); count > 0; count--) {
    rn += reader.signed();
    const start = end + reader.signed();
    end = start + reader.signed();
    randnummern.push({ rn, start_offset: start, end_offset: end });
  }
  return { chunks, randnummern };
}

/** A decision's parts as row_chunks and row_randnummern hold them, by its integer row. */
export function pagePartsOfRow(db: Database.Database, decisionRow: number): PageParts {
  return {
    chunks: sql<[number], PartChunk>(db, `SELECT id, section, rn_from, rn_to, start_offset, end_offset FROM row_chunks
      WHERE decision_row = ? ORDER BY position`).all(decisionRow),
    randnummern: sql<[number], PartRandnummer>(db, `SELECT rn, start_offset, end_offset FROM row_randnummern
      WHERE decision_row = ? ORDER BY position`).all(decisionRow),
  };
}

/** Whether the connection's corpus has the column (a file of schema 4 written before Session 19 has not). */
export function hasPageParts(db: Database.Database): boolean {
  let held = columnHeld.get(db);
  if (held === undefined) {
    held = (db.pragma('table_info(decisions)') as { name: string }[]).some((column) => column.name === 'page_parts');
    columnHeld.set(db, held);
  }
  return held;
}
const columnHeld = new WeakMap<Database.Database, boolean>();

/**
 * decisions.page_parts added to an older file of this schema version and filled for every decision (a column added
 * without a version change, as coverage_ranges.verified_at was: a reader that finds no column or no packed parts
 * reads the tables, so an older file stays readable read-only). Once per file (meta `page_parts`), one transaction.
 */
export function addPageParts(db: Database.Database): void {
  if (!hasPageParts(db)) {
    db.exec('ALTER TABLE decisions ADD COLUMN page_parts BLOB');
    columnHeld.set(db, true);
  }
  const done = db.prepare(`SELECT value FROM meta WHERE key = 'page_parts'`).pluck().get();
  if (done === '1') return;
  db.transaction(() => {
    // In the order of the decisions' b-tree, each row written where it is (by rowid, no UUID looked up again).
    const missing = db.prepare(`SELECT d.rowid AS at, r.row, d.content_hash FROM decisions d JOIN decision_rows r ON r.id = d.id
      WHERE d.page_parts IS NULL ORDER BY d.rowid`).all() as { at: number; row: number; content_hash: string }[];
    const write = db.prepare('UPDATE decisions SET page_parts = ? WHERE rowid = ?');
    for (const { at, row, content_hash: hash } of missing) write.run(encodePageParts(hash, pagePartsOfRow(db, row)), at);
    db.prepare(`INSERT INTO meta (key, value) VALUES ('page_parts', '1') ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run();
  })();
}

/** The first FINGERPRINT_BYTES bytes of a hex content hash (zeros where it is shorter or not hex). */
function fingerprint(contentHash: string): number[] {
  return Array.from({ length: FINGERPRINT_BYTES }, (_, i) => fingerprintByte(contentHash, i));
}

/** Byte `i` of the fingerprint (a page checks 20 decisions' hashes: no array made for each, no slice parsed). */
function fingerprintByte(contentHash: string, i: number): number {
  const high = hexDigit(contentHash.charCodeAt(2 * i));
  const low = hexDigit(contentHash.charCodeAt(2 * i + 1));
  return high >= 0 && low >= 0 ? high * 16 + low : Number.parseInt(contentHash.slice(2 * i, 2 * i + 2), 16) || 0;
}

/** The value of a hex digit's code unit, or -1. */
function hexDigit(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  const lower = unit | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * The section names decoded so far, with their bytes: every decision packs the same few (Tenor, Tatbestand, Gründe),
 * and a page decoded each anew (80 strings a page, 5% of its parts' and texts' reading; Session 24).
 */
const knownSections: { bytes: Uint8Array; name: string }[] = [];
const KNOWN_SECTIONS = 64;

/** The section name packed in bytes [start, end): one met before is the same string again. */
function sectionName(packed: Uint8Array, start: number, end: number): string {
  for (const known of knownSections) if (sameBytes(known.bytes, packed, start, end)) return known.name;
  const name = utf8Text(packed, start, end);
  if (knownSections.length >= KNOWN_SECTIONS) knownSections.length = 0;
  knownSections.push({ bytes: new Uint8Array(packed.subarray(start, end)), name });
  return name;
}

/** Whether `bytes` equals packed[start, end). */
function sameBytes(bytes: Uint8Array, packed: Uint8Array, start: number, end: number): boolean {
  if (bytes.length !== end - start) return false;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== packed[start + i]) return false;
  return true;
}

/** The UTF-8 text of bytes [start, end) (a Buffer, as SQLite's blobs come, decodes in place, without a view made). */
function utf8Text(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.isBuffer(bytes) ? bytes.toString('utf8', start, end) : Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
}

function unsigned(out: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** Zig-zag: 0, -1, 1, -2 ... as 0, 1, 2, 3 ... */
const signed = (out: number[], value: number): void => unsigned(out, value >= 0 ? 2 * value : -2 * value - 1);
/** null as 0, a value as its zig-zag form plus one. */
const nullable = (out: number[], value: number | null): void => unsigned(out, value === null ? 0 : (value >= 0 ? 2 * value : -2 * value - 1) + 1);

class Reader {
  readonly #bytes: Uint8Array;
  at: number;

  constructor(bytes: Uint8Array, at: number) {
    this.#bytes = bytes;
    this.at = at;
  }

  unsigned(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.#bytes[this.at++];
      if (byte === undefined) throw new Error('page_parts: packed parts end early');
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  signed(): number {
    return unzigzag(this.unsigned());
  }

  nullable(): number | null {
    const value = this.unsigned();
    return value === 0 ? null : unzigzag(value - 1);
  }
}

const unzigzag = (value: number): number => (value % 2 === 0 ? value / 2 : -(value + 1) / 2);
