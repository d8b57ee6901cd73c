/**
 * frequently_cited_by_results (issue [ranking], Session 22): this tree's counting in JS (src/search/cited-by-results.ts)
 * against Session 21's single statement (GROUP BY with count(DISTINCT), test/helpers/cited-before.ts), on the pages
 * of the bench queries (keyword, pages 1 and 2: the rows a search passes) and on random sets of 20 decision rows;
 * every answer compared (by rows, and by UUID for the by-ids function).
 *
 *   node bench/cited-by-results.ts [--db /work/main/.tmp/bench-100k-s21.db] [--queries 200] [--random 400] [--passes 5]
 *
 * Warm: one read-only connection, each set answered both ways in turn (the order alternating), after an untimed pass.
 * New pages: a read-only connection per way, its page cache first filled as a server's is (warmPageCache: decision
 * rows, impact lists, keyword index), then each distinct set read once by each (the order alternating): the index
 * pages and the cited decisions come from the file (the OS's cache) into the connection's page cache, as for a page
 * no earlier search showed. Each connection times inside one open read transaction, as a search calls it.
 */
import { parseArgs } from 'node:util';
import { printTable, stats } from './lib.ts';
import { benchQueries } from './search-queries.ts';
import { openCorpus, type CorpusDb } from '../src/corpus/open.ts';
import { warmPageCache } from '../src/corpus/warm-cache.ts';
import { pageAnswer, rankDecisions } from '../src/search/decision-search.ts';
import { frequentlyCitedByResults, frequentlyCitedByRows } from '../src/search/cited-by-results.ts';
import { citedBeforeStatements } from '../test/helpers/cited-before.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string', default: '/work/main/.tmp/bench-100k-s21.db' }, queries: { type: 'string', default: '200' },
  random: { type: 'string', default: '400' }, passes: { type: 'string', default: '5' },
} });
const path = values.db!;

/** The rows of pages 1 and 2 of each bench query (keyword), and random sets of 20 rows (a fixed seed). */
function sets(db: CorpusDb): { pages: number[][]; random: number[][] } {
  const rowOf = db.prepare('SELECT row FROM decision_rows WHERE id = ?').pluck();
  const pages: number[][] = [];
  for (const query of benchQueries(Number(values.queries)).legal) {
    const ranking = db.transaction(() => rankDecisions(db, { query, mode: 'keyword', bridge: true, depth: 40 }, true))();
    for (const from of [0, 20]) {
      const page = db.transaction(() => pageAnswer(db, ranking, from, 20))().results.map((item) => rowOf.get(item.id) as number);
      if (page.length >= 2) pages.push(page);
    }
  }
  const last = db.prepare('SELECT max(row) FROM decision_rows').pluck().get() as number;
  let seed = 22;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  return { pages, random: Array.from({ length: Number(values.random) }, () => Array.from({ length: 20 }, () => 1 + Math.floor(random() * last))) };
}

/** Both ways over one connection: Session 21's statement and this tree's function. */
function ways(db: CorpusDb) {
  const before = citedBeforeStatements(db);
  return [(rows: number[]) => before.byRows.all(JSON.stringify(rows)), (rows: number[]) => frequentlyCitedByRows(db, rows)];
}

const db = openCorpus(path, { readonly: true });
const { pages, random } = sets(db);
const idOf = db.prepare('SELECT id FROM decision_rows WHERE row = ?').pluck();
const before = citedBeforeStatements(db);
let same = 0;
let sameByIds = 0;
let listed = 0;
for (const rows of [...pages, ...random]) {
  const expected = JSON.stringify(before.byRows.all(JSON.stringify(rows)));
  if (JSON.stringify(frequentlyCitedByRows(db, rows)) === expected) same++;
  const ids = rows.map((row) => idOf.get(row) as string | undefined).filter((id) => id !== undefined);
  if (JSON.stringify(frequentlyCitedByResults(db, ids)) === JSON.stringify(before.byIds.all(JSON.stringify(ids)))) sameByIds++;
  listed += (JSON.parse(expected) as unknown[]).length;
}
const all = pages.length + random.length;
console.log(`${path}: ${pages.length} pages of ${values.queries} queries, ${random.length} random sets of 20; identical answers by rows ${same}/${all}, by UUID ${sameByIds}/${all}; ${(listed / all).toFixed(1)} decisions listed a set`);

const table: (string | number)[][] = [['frequently_cited_by_results', 'p50 ms', 'p95 ms', 'mean ms', 'x before p50']];
const report = (label: string, samples: number[][]) => {
  for (const [way, name] of ['Session 21 statement', 'counted in JS'].entries()) {
    const s = stats(samples[way]);
    table.push([`${label}: ${name}`, s.p50.toFixed(3), s.p95.toFixed(3), s.mean.toFixed(3), (s.p50 / stats(samples[0]).p50).toFixed(2)]);
  }
};
const timed = (run: (rows: number[]) => unknown, rows: number[]) => {
  const started = performance.now();
  run(rows);
  return performance.now() - started;
};

// New pages first (this process has read none of them): one connection per way, distinct sets only.
const fresh = [openCorpus(path, { readonly: true }), openCorpus(path, { readonly: true })];
for (const connection of fresh) await warmPageCache(connection);
const freshWays = fresh.map((connection, way) => ways(connection)[way]);
for (const connection of [...fresh, db]) connection.exec('BEGIN');
for (const [label, list] of [['pages, new', pages], ['random, new', random]] as const) {
  const distinct = [...new Map(list.map((rows) => [JSON.stringify(rows), rows])).values()];
  const samples: number[][] = [[], []];
  distinct.forEach((rows, index) => {
    for (const way of index % 2 === 0 ? [0, 1] : [1, 0]) samples[way].push(timed(freshWays[way], rows));
  });
  report(`${label} (${distinct.length})`, samples);
}
for (const connection of fresh) {
  connection.exec('COMMIT');
  connection.close();
}

const warmWays = ways(db);
for (const [label, list] of [['pages, warm', pages], ['random, warm', random]] as const) {
  const samples: number[][] = [[], []];
  for (let pass = 0; pass <= Number(values.passes); pass++) {
    list.forEach((rows, index) => {
      for (const way of (index + pass) % 2 === 0 ? [0, 1] : [1, 0]) {
        const ms = timed(warmWays[way], rows);
        if (pass > 0) samples[way].push(ms);
      }
    });
  }
  report(label, samples);
}
printTable(table);
db.exec('COMMIT');
db.close();
