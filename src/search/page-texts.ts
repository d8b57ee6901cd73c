// The decision texts result pages cut their chunks from, kept decompressed per corpus connection: a text costs a zstd
// decompression each time it is read (some 35 µs for 11 KB, most of it Node's per-call set-up, two thirds of a page's
// 20 decisions' reading), and the decisions a search shows recur across queries (the leading decisions of a matter).
// Kept only for the state of the corpus they were read from, as the answer cache is (any commit to the file empties
// it); bounded by characters, the least recently used going first.
import type Database from 'better-sqlite3';
import { sql } from '../db/statements.ts';
import { decompressText } from '../corpus/stored-text.ts';
import { corpusVersion } from '../db/corpus-version.ts';

/** Characters kept per connection (up to about 16 MB; a generated decision has some 11,000). */
export const PAGE_TEXT_CHARS = 8_000_000;

interface Kept { version: string; texts: Map<string, string>; chars: number }
const kept = new WeakMap<Database.Database, Kept>();

/** The texts a connection keeps, as a page reads them: those kept first, then the others from their stored values. */
export interface PageTextStore {
  /** The kept texts of `ids` (an id not kept is absent), each now the most recently used. */
  kept(ids: readonly string[]): Map<string, string>;
  /** The text of a decision's stored value (decisions.text_zstd), decompressed and kept. */
  read(id: string, stored: Uint8Array): string;
}

/**
 * The texts kept for `db` in the state the corpus is in now (call inside the read transaction the page is read in).
 * Take the kept ones first: keeping a text read anew may push out one the same page shows.
 */
export function pageTextStore(db: Database.Database, limit = PAGE_TEXT_CHARS): PageTextStore {
  const version = corpusVersion(db);
  let cache = kept.get(db);
  if (!cache || cache.version !== version) kept.set(db, cache = { version, texts: new Map(), chars: 0 });
  const held = cache;
  return {
    kept(ids) {
      const found = new Map<string, string>();
      for (const id of ids) {
        const text = held.texts.get(id);
        if (text === undefined) continue;
        held.texts.delete(id);
        held.texts.set(id, text);
        found.set(id, text);
      }
      return found;
    },
    read(id, stored) {
      const text = decompressText(stored);
      keep(held, id, text, limit);
      return text;
    },
  };
}

/**
 * The texts of decisions `ids` as the corpus holds them now (an id naming no decision is absent), decompressing
 * only those not kept from an earlier page, read in one statement. Call inside the read transaction the page is read in.
 *
 * @example const texts = pageTexts(db, ['3f2c…', '9a41…']); texts.get('3f2c…')
 */
export function pageTexts(db: Database.Database, ids: readonly string[], limit = PAGE_TEXT_CHARS): Map<string, string> {
  const store = pageTextStore(db, limit);
  const found = store.kept(ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const byId = new Map(sql<[string], { id: string; text_zstd: Buffer }>(db,
      'SELECT id, text_zstd FROM decisions WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(missing))
      .map((row) => [row.id, row.text_zstd]));
    for (const id of missing) {
      const stored = byId.get(id);
      if (stored !== undefined && !found.has(id)) found.set(id, store.read(id, stored));
    }
  }
  // In the order asked.
  const texts = new Map<string, string>();
  for (const id of ids) {
    const text = found.get(id);
    if (text !== undefined) texts.set(id, text);
  }
  return texts;
}

/** Forgets the texts kept for `db` (benchmarks measuring pages of decisions not seen before). */
export const dropPageTexts = (db: Database.Database): void => { kept.delete(db); };

/** How many texts the connection keeps now (for tests). */
export const keptTexts = (db: Database.Database): number => kept.get(db)?.texts.size ?? 0;

function keep(cache: Kept, id: string, text: string, limit: number): void {
  if (text.length > limit) return;
  cache.texts.set(id, text);
  cache.chars += text.length;
  for (const [oldest, dropped] of cache.texts) {
    if (cache.chars <= limit) break;
    cache.texts.delete(oldest);
    cache.chars -= dropped.length;
  }
}
