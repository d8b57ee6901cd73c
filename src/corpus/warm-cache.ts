// Warming a serving connection's page cache. SQLite's page cache grows as pages are read: a new server (or a corpus
// reopened on SIGHUP) pays, inside its first searches, for every buffer the cache has not yet allocated, and on a
// virtual machine a first touch of fresh memory costs 10-18 µs a 4 KB page (bench/README, "Session 20: a warm page
// cache"): some 30 µs per page read, against 2-4 µs for a page that reuses a buffer. So a corpus opened for serving
// has its page cache filled with what searches read (before the server listens; a reopened corpus between requests,
// in slices of about a millisecond): a tenth of it with decision rows (read first, so evicted first: the cache drops
// the pages used longest ago), then the impact lists, then the keyword index as far as the cache holds.
import type { CorpusDb } from './open.ts';

/** One pass over part of a table: rows after `after` (in key order), at most `rows`. */
interface Source {
  name: string;
  /** Reads one slice: returns its last key, its bytes and its row count (0 at the end of the table). */
  slice: (after: number | string, rows: number) => { last: number | string | null; bytes: number; n: number };
  start: number | string;
}

/** What one warming did, for logs and tests. */
export interface WarmReport { bytes: number; slices: number; ms: number; stopped: boolean }

/** Each slice aims at this long, so a request arriving meanwhile waits at most about that long for the event loop. */
const SLICE_MS = 1;

/** A table's slices: each reads its rows' content (substr loads a whole value; length alone reads only a header). */
function source(db: CorpusDb, name: string, table: string, key: string, columns: string[], start: number | string): Source {
  const loaded = columns.map((column) => `length(substr(${column}, -1))`).join(' + ');
  const sized = columns.map((column) => `coalesce(length(${column}), 0)`).join(' + ');
  const statement = db.prepare(`SELECT max(k) AS last, coalesce(sum(size), 0) AS bytes, count(*) AS n, sum(touched) AS touched FROM
    (SELECT ${key} AS k, ${sized} AS size, ${loaded} AS touched FROM ${table} WHERE ${key} > ? ORDER BY ${key} LIMIT ?)`);
  return {
    name,
    start,
    slice: (after, rows) => statement.get(after, rows) as { last: number | string | null; bytes: number; n: number },
  };
}

/** The tables a search reads, in the order they are warmed; those an older or smaller corpus lacks are left out. */
function sources(db: CorpusDb): Source[] {
  const has = (table: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  const list: Source[] = [];
  if (has('decisions')) {
    const columns = (db.pragma('table_info(decisions)') as { name: string }[]).some((column) => column.name === 'page_parts')
      ? ['text_zstd', 'page_parts'] : ['text_zstd'];
    list.push(source(db, 'decisions', 'decisions', 'rowid', columns, 0));
  }
  if (has('search_impacts')) {
    const columns = (db.pragma('table_info(search_impacts)') as { name: string }[]).some((column) => column.name === 'terms')
      ? ['listed', 'terms'] : ['listed'];
    list.push(source(db, 'impact lists', 'search_impacts', 'phrase', columns, ''));
  }
  if (has('decisions_fts_data')) list.push(source(db, 'keyword index', 'decisions_fts_data', 'id', ['block'], Number.MIN_SAFE_INTEGER));
  return list;
}

/** The page cache's size in bytes (cache_size counts pages when positive, KiB when negative). */
function cacheBytes(db: CorpusDb): number {
  const size = db.pragma('cache_size', { simple: true }) as number;
  return size < 0 ? -size * 1024 : size * (db.pragma('page_size', { simple: true }) as number);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Fills the connection's page cache, slice by slice between other work, until it holds what the searches read or is
 * full: up to a tenth of it with decision rows, then the impact lists, then the keyword index. Stops quietly when the connection closes (a reopened corpus retires the old one) or a
 * read fails; the answers never depend on it.
 *
 * @example warmPageCache(services.corpus).then((report) => console.log(`${report.bytes} bytes in ${report.ms} ms`));
 */
export async function warmPageCache(db: CorpusDb, budget = cacheBytes(db)): Promise<WarmReport> {
  const started = performance.now();
  const report: WarmReport = { bytes: 0, slices: 0, ms: 0, stopped: false };
  try {
    for (const table of sources(db)) {
      let after = table.start;
      let rows = 64;
      let read = 0;
      const cap = Math.min(table.name === 'decisions' ? budget / 10 : budget, budget - report.bytes);
      while (read < cap) {
        await nextTurn();
        if (!db.open) return { ...report, stopped: true, ms: performance.now() - started };
        const at = performance.now();
        const slice = table.slice(after, rows);
        report.slices += 1;
        if (slice.n === 0 || slice.last === null) break;
        after = slice.last;
        read += slice.bytes;
        report.bytes += slice.bytes;
        // The next slice as many rows as fit in SLICE_MS at this slice's pace (at most twice as many).
        const took = Math.max(performance.now() - at, 0.05);
        rows = Math.max(16, Math.min(rows * 2, Math.round(rows * SLICE_MS / took)));
      }
    }
  } catch {
    report.stopped = true;
  }
  report.ms = performance.now() - started;
  return report;
}
