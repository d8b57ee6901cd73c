// How a decision's text is held (corpus schema 3): once, compressed, in decisions.text_zstd. Chunks, sections and
// Randnummern are code point ranges into it; nothing else stores its characters. Every reader of text goes through
// this module (or the SQL function decision_text(), for queries that cut the text in SQL). Since Session 20 the column
// holds texts in juralite's own LZ codec (src/corpus/lz-text.ts: decoded in JS into a reused buffer, 2-4x faster than
// a zstd call); a text an older juralite wrote is a zstd frame, read as before, and a writable open recodes them once
// (recodeTexts). The column keeps its name: the value says which codec wrote it.
import { zstdDecompressSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { codePointIndexer, utf16Index } from '../text/code-points.ts';
import { isLzText, lzCompressText, lzDecompressText } from './lz-text.ts';

/** A decision's text as decisions.text_zstd holds it: UTF-8, compressed by the LZ codec (lz-text.ts). */
export function compressText(text: string): Buffer {
  return lzCompressText(text);
}

/**
 * The text of a decisions.text_zstd value: the LZ codec's, or a zstd frame (written by an older juralite),
 * decompressed into one buffer of the size its frame header states: Node's default 16 KB output chunk made a quarter of
 * the generated texts two chunks joined, and cost every text some microseconds more (bench/README, Session 18).
 */
export function decompressText(stored: Uint8Array): string {
  if (isLzText(stored)) return lzDecompressText(stored);
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
  const cut = textCutter(text);
  return spans.map((span) => ({ ...span, text: cut(span.start_offset, span.end_offset) }));
}

/**
 * The text between two code point offsets of `text`, for many spans of one text (a result page's chunks, each made
 * into its passage object at once: no intermediate object per chunk). `codePoints`: the text's length in code points
 * where the caller knows it (decisions.text_length): equal to its UTF-16 length, the text holds no surrogate pair and
 * is not searched for one.
 */
export function textCutter(text: string, codePoints?: number): (start: number, end: number) => string {
  const toUtf16 = codePoints === text.length ? unitsAsPoints(text) : utf16Converter(text);
  return (start, end) => text.slice(toUtf16(start), toUtf16(end));
}

/** Code point offsets as UTF-16 indexes of a string without surrogate pairs (clamped to its end). */
const unitsAsPoints = (text: string) => (offset: number) => Math.max(0, Math.min(offset, text.length));

/** A converter from code point offsets to UTF-16 indexes of one string, for many lookups. */
function utf16Converter(text: string): (offset: number) => number {
  const toCodePoint = codePointIndexer(text);
  if (toCodePoint(text.length) === text.length) return unitsAsPoints(text);
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

/** Decisions recoded per statement batch by recodeTexts. */
const RECODE_BATCH = 500;

/**
 * The texts an older juralite wrote as zstd frames recoded in the LZ codec, once per file (meta `text_codec`), in one
 * transaction, each row written where it is (by rowid, in the b-tree's order). The text itself is unchanged (so are
 * content_hash and the packed parts); a file not recoded yet, or opened read-only, is read as it is.
 */
export function recodeTexts(db: Database.Database): void {
  if (db.prepare(`SELECT value FROM meta WHERE key = 'text_codec'`).pluck().get() === 'lz1') return;
  db.transaction(() => {
    const read = db.prepare('SELECT rowid AS at, text_zstd FROM decisions WHERE rowid > ? ORDER BY rowid LIMIT ?');
    const write = db.prepare('UPDATE decisions SET text_zstd = ? WHERE rowid = ?');
    for (let after = 0; ;) {
      const rows = read.all(after, RECODE_BATCH) as { at: number; text_zstd: Buffer }[];
      if (rows.length === 0) break;
      for (const { at, text_zstd: stored } of rows) {
        if (!isLzText(stored)) write.run(compressText(decompressText(stored)), at);
      }
      after = rows.at(-1)!.at;
    }
    db.prepare(`INSERT INTO meta (key, value) VALUES ('text_codec', 'lz1') ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run();
  })();
}
