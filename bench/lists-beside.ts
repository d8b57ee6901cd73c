/**
 * This tree's impact lists for a corpus it must not write (the shared 500k file, read-only in place): built into a side
 * file from a read-only attach of the corpus, then read through temporary views that stand in for the corpus's own
 * tables (temp names come first in SQLite's lookup), so the ranking code reads them unchanged.
 *
 *   node bench/lists-beside.ts --db CORPUS --out SIDE.db     (builds; minutes at 500k)
 *   node bench/topk-steps.ts --db CORPUS --lists SIDE.db ...  (reads them: listsBeside below)
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { buildImpactLists, sealImpactLists } from '../src/search/impact-lists.ts';

/** search_impacts as impact-lists.ts creates it. */
const COLUMNS = `id INTEGER PRIMARY KEY, phrase TEXT NOT NULL UNIQUE, rows INTEGER NOT NULL, beyond REAL NOT NULL,
  listed BLOB NOT NULL, terms BLOB, matched BLOB, deeper BLOB`;

/** Makes a read-only corpus connection read the lists (and their state in meta) of `side`. */
export function listsBeside(db: Database.Database, side: string): void {
  db.prepare('ATTACH ? AS lists').run(side);
  // The corpus's own page cache size (open.ts; an attached file gets SQLite's default, 2 MB).
  db.pragma('lists.cache_size = -262144');
  for (const table of ['search_impacts', 'search_impacts_changed', 'meta']) {
    db.exec(`CREATE TEMP VIEW ${table} AS SELECT * FROM lists.${table}`);
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { db: { type: 'string' }, out: { type: 'string' } } });
  if (!values.db || !values.out || existsSync(values.out)) {
    console.error('usage: node bench/lists-beside.ts --db CORPUS --out SIDE.db (SIDE.db must not exist)');
    process.exit(2);
  }
  // Built in temporary tables of a read-only connection (they shadow the corpus's own: the trigger and FTS5's flush
  // are not needed, the index having no writes pending), then copied into the side file.
  const db = new Database(values.db, { readonly: true });
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -262144');
  db.exec(`CREATE TEMP TABLE search_impacts (${COLUMNS});
    CREATE TEMP TABLE search_impacts_changed (doc_id INTEGER PRIMARY KEY);
    CREATE TEMP TABLE meta (key TEXT PRIMARY KEY, value TEXT);
    INSERT INTO temp.meta SELECT key, value FROM main.meta WHERE key <> 'search_impacts'`);
  const started = performance.now();
  db.transaction(() => buildImpactLists(db, { flush: false }))();
  sealImpactLists(db);
  const seconds = (performance.now() - started) / 1000;
  const out = new Database(values.out);
  out.exec(`CREATE TABLE search_impacts (${COLUMNS});
    CREATE TABLE search_impacts_changed (doc_id INTEGER PRIMARY KEY);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)`);
  const copy = (table: string) => {
    const rows = db.prepare(`SELECT * FROM temp.${table}`).all() as Record<string, unknown>[];
    if (rows.length === 0) return;
    const names = Object.keys(rows[0]);
    const insert = out.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
    out.transaction(() => rows.forEach((row) => insert.run(...names.map((name) => row[name]))))();
  };
  for (const table of ['search_impacts', 'meta']) copy(table);
  const size = out.prepare('SELECT count(*) AS n, sum(length(listed) + length(terms)) AS listed, sum(length(deeper)) AS deeper, sum(length(matched)) AS matched FROM search_impacts').get();
  console.log(`built in ${seconds.toFixed(1)} s:`, size);
  out.close();
  db.close();
}
