/**
 * Size of a corpus file per table and index (SQLite's dbstat), largest first, with the file's total.
 *
 *   node bench/db-size.ts --db .tmp/bench-100k.db [--top 30]
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openCorpus } from '../src/corpus/open.ts';
import { printTable } from './lib.ts';

/** Bytes per table and index (its pages times the page size), largest first; FTS5 and vec0 shadow tables apart. */
export function sizePerObject(path: string): { name: string; bytes: number; rows: string }[] {
  const db = openCorpus(path, { readonly: true });
  try {
    return db.prepare(`SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC`).all()
      .map((row) => ({ ...(row as { name: string; bytes: number }), rows: '' }));
  } finally {
    db.close();
  }
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** Prints the size table of a corpus file. */
export function printSizes(path: string, top = 30): void {
  const sizes = sizePerObject(path);
  const total = statSync(path).size;
  printTable([['table or index', 'MB', '% of file'],
    ...sizes.slice(0, top).map((s) => [s.name, mb(s.bytes), (100 * s.bytes / total).toFixed(1)]),
    ['(file)', mb(total), '100.0']]);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { db: { type: 'string' }, top: { type: 'string', default: '30' } } });
  if (!values.db) {
    console.error('usage: node bench/db-size.ts --db CORPUS [--top 30]');
    process.exit(2);
  }
  printSizes(values.db, Number(values.top));
}
