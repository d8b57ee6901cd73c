// How a decision's text is held (corpus schema 3): once, zstd-compressed, in decisions.text_zstd. Chunks, sections
// and Randnummern are code point ranges into it; nothing else stores its characters. Every reader of text goes
// through this module (or the SQL function decision_text(), for queries that cut the text in SQL).
import { constants, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { codePointIndexer, utf16Index } from '../text/code-points.ts';

// Level 3 (zstd's default): on generated decisions level 6 made texts 8% smaller at twice the time per text (55 against
// 110 µs for 11 KB); decompression costs the same for both (about 35 µs).
const LEVEL = 3;

/** A decision's text as decisions.text_zstd holds it: UTF-8, zstd-compressed. */
export function compressText(text: string): Buffer {
  return zstdCompressSync(Buffer.from(text, 'utf8'), { params: { [constants.ZSTD_c_compressionLevel]: LEVEL } });
}

/**
 * The text of a decisions.text_zstd value, decompressed into one buffer of the size its frame header states: Node's
 * default 16 KB output chunk made a quarter of the generated texts two chunks joined, and cost every text some
 * microseconds more (bench/README, Session 18).
 */
export function decompressText(stored: Uint8Array): string {
  const chunkSize = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, frameContentSize(stored) ?? DEFAULT_CHUNK));
  return zstdDecompressSync(stored, { chunkSize }).toString('utf8');
}

const MIN_CHUNK = 64;
const DEFAULT_CHUNK = 16 * 1024;
// A size beyond any decision's text (a damaged header, say) allocates no more than this at once.
const MAX_CHUNK = 64 * 1024 * 1024;

/**
 * The decompressed size a zstd frame's header states (RFC 8878, 3.1.1.1), or undefined where it states none (our
 * frames always do: compressText hands zstd the whole text at once).
 */
export function frameContentSize(frame: Uint8Array): number | undefined {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  if (frame.length < 6 || view.getUint32(0, true) !== ZSTD_MAGIC) return undefined;
  const descriptor = frame[4];
  const singleSegment = (descriptor >> 5) & 1;
  // After the descriptor: the window descriptor (unless single segment), the dictionary id, then the size.
  const at = 5 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][descriptor & 3];
  const width = [singleSegment, 2, 4, 8][descriptor >> 6];
  if (width === 0 || frame.length < at + width) return undefined;
  if (width === 1) return view.getUint8(at);
  if (width === 2) return view.getUint16(at, true) + 256;
  if (width === 4) return view.getUint32(at, true);
  return Number(view.getBigUint64(at, true));
}

const ZSTD_MAGIC = 0xfd2fb528;

/** A decision's whole text, or undefined when no decision has that id. */
export function decisionText(db: Database.Database, decisionId: string): string | undefined {
  const row = sql<[string], { text_zstd: Buffer }>(db, 'SELECT text_zstd FROM decisions WHERE id = ?').get(decisionId);
  return row ? decompressText(row.text_zstd) : undefined;
}

/** A chunk as its readers want it: its columns and its text, cut from the decision's text. */
export interface ChunkSpan { start_offset: number; end_offset: number }

/**
 * Cuts the text of each span (code point offsets) from `text`: one pass over the text for all of them, none for a
 * text without astral characters.
 */
export function withTexts<T extends ChunkSpan>(text: string, spans: T[]): (T & { text: string })[] {
  const toUtf16 = utf16Converter(text);
  return spans.map((span) => ({ ...span, text: text.slice(toUtf16(span.start_offset), toUtf16(span.end_offset)) }));
}

/** A converter from code point offsets to UTF-16 indexes of one string, for many lookups. */
function utf16Converter(text: string): (offset: number) => number {
  const toCodePoint = codePointIndexer(text);
  if (toCodePoint(text.length) === text.length) return (offset) => Math.max(0, Math.min(offset, text.length));
  return (offset) => utf16Index(text, offset);
}

/** A decision's chunks in position order, each with its text (section and text: what the search analysis reads). */
export function chunkTexts(db: Database.Database, decisionId: string): { section: string | null; text: string }[] {
  const text = decisionText(db, decisionId);
  if (text === undefined) return [];
  const spans = sql<[string], { section: string | null } & ChunkSpan>(db,
    'SELECT section, start_offset, end_offset FROM chunks WHERE decision_id = ? ORDER BY position').all(decisionId);
  return withTexts(text, spans);
}

/**
 * Registers decision_text(text_zstd) on a connection, the text of a decisions.text_zstd value, for queries that cut
 * it in SQL (substr counts code points, as every offset does); and compress_text(text), its inverse, for the
 * upgrade of older files and for SQL that writes a decision.
 */
export function registerTextFunctions(db: Database.Database): void {
  db.function('decision_text', { deterministic: true }, (stored: unknown) =>
    (stored instanceof Uint8Array ? decompressText(stored) : null));
  db.function('compress_text', { deterministic: true }, (text: unknown) => (text === null ? null : compressText(String(text))));
}

/**
 * Chunk texts for a stream of chunks in decision order (the search index's queue): each decision's text is read and
 * decompressed once, for all its chunks that follow one another.
 */
export class ChunkTextReader {
  readonly #db: Database.Database;
  #decisionId: string | undefined;
  #text = '';
  #toUtf16: (offset: number) => number = (offset) => offset;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** The text of decision `decisionId`'s chunk [start, end) (code points). */
  text(decisionId: string, start: number, end: number): string {
    if (decisionId !== this.#decisionId) {
      this.#decisionId = decisionId;
      this.#text = decisionText(this.#db, decisionId) ?? '';
      this.#toUtf16 = utf16Converter(this.#text);
    }
    return this.#text.slice(this.#toUtf16(start), this.#toUtf16(end));
  }
}
