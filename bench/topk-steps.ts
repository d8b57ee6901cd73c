/**
 * Where a keyword ranking's time goes (issue [scale] item 3, [ranking] item 4): the parts of FTS5's work for the
 * keyword expression of the bench's legal queries, each timed on its own on one read-only connection (no rank helper),
 * rotating per query so that each runs first for some queries:
 *
 *   node bench/topk-steps.ts --db CORPUS [--queries 60] [--pool 20] [--before DIR] [--arm typed|widened]
 *
 * --arm: hybrid's lexical arm instead (the mixed legal and lay queries, words OR'd, as typed or widened; --pool 200).
 * --before DIR: an older checkout (`git archive HEAD src | tar -x -C DIR`): its top-k path as a row of its own.
 * --before-db FILE: the older top-k path reads this copy of the corpus (its lists as its code builds them).
 * --lists SIDE: this tree reads the lists of SIDE, built beside the read-only corpus by bench/lists-beside.ts.
 * Every answer of the top-k paths is compared with the full ranking's.
 * Opens the corpus read-only: it never writes the file (the impact lists must be there already).
 */
import { execSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openCorpus } from '../src/corpus/open.ts';
import { decodeList } from '../src/search/impact-lists.ts';
import { filterSql } from '../src/search/filters.ts';
import { planQuery } from '../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf } from '../src/search/query.ts';
import { ALL_ROWS, BM25, COUNT_CAP, rankRange } from '../src/search/rank-range.ts';
import { topKRanking, topKServed } from '../src/search/top-k.ts';
import { listsServed, matchesFromLists, rankFromLists } from '../src/search/top-k-lists.ts';
import { listsBeside } from './lists-beside.ts';
import { benchQueries } from './search-queries.ts';
import { printTable, stats } from './lib.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, queries: { type: 'string', default: '60' }, pool: { type: 'string', default: '20' }, before: { type: 'string' },
  arm: { type: 'string' }, 'before-db': { type: 'string' }, lists: { type: 'string' },
} });
if (!values.db) {
  console.error('usage: node bench/topk-steps.ts --db CORPUS [--queries N] [--pool N]');
  process.exit(2);
}
const load = () => execSync('uptime').toString().trim().replace(/.*load average: /u, '');
console.log(`${new Date().toISOString()}, node ${process.version}, load ${load()}`);
const db = openCorpus(values.db, { readonly: true });
if (values.lists) listsBeside(db, values.lists);
const pool = Number(values.pool);
const noFilter = filterSql({});
const { legal, mixed } = benchQueries(Number(values.queries));
const arm = values.arm;

type TopK = typeof topKRanking;
const beforeDb = values['before-db'] ? openCorpus(values['before-db'], { readonly: true }) : db;
const older = values.before
  ? await import(resolve(values.before, 'src/search/top-k.ts')) as { topKRanking: TopK; topKServed: typeof topKServed } : null;
const answers = new Map<string, string>();
const differing = { now: 0, before: 0, proven: { now: 0, before: 0 } };
/** Runs a top-k path and compares a proven answer with the full ranking's. */
const compared = (which: 'now' | 'before', rank: TopK) => (expression: string, phrases: string[]) => {
  const on = which === 'before' ? beforeDb : db;
  const answer = on.transaction(() => rank(on, expression, phrases, noFilter, pool))();
  if (answer) {
    differing.proven[which]++;
    const full = answers.get(expression) ?? JSON.stringify(db.transaction(() => rankRange(db, expression, noFilter, ALL_ROWS, pool))());
    answers.set(expression, full);
    if (JSON.stringify(answer) !== full) differing[which]++;
  }
};
const get = <T>(text: string, ...params: unknown[]) => db.prepare(text).get(...params) as T;
const steps: Record<string, (expression: string, phrases: string[]) => unknown> = {
  'full ranking (statement and count)': (expression) => db.transaction(() => rankRange(db, expression, noFilter, ALL_ROWS, pool))(),
  'full ranking statement alone': (expression) => db.prepare(`SELECT rowid, ${BM25} AS score FROM decisions_fts f WHERE decisions_fts MATCH ? ORDER BY score, rowid LIMIT ?`).all(expression, pool),
  'count from the lists\' row sets (null where not)': (expression) => db.transaction(() => matchesFromLists(db, expression, COUNT_CAP + 1))(),
  'count up to 10,001 (no bm25)': (expression) => get(`SELECT count(*) AS n FROM (SELECT 1 FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT ?)`, expression, COUNT_CAP + 1),
  'walk every match (no bm25)': (expression) => get(`SELECT count(*) AS n FROM decisions_fts WHERE decisions_fts MATCH ?`, expression),
  'one row, no bm25 (set-up: prefix merges)': (expression) => {
    const first = get<{ id: number } | undefined>('SELECT rowid AS id FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT 1', expression);
    return first && get(`SELECT rowid FROM decisions_fts f WHERE decisions_fts MATCH ? AND rowid >= ? AND rowid <= ?`, expression, first.id, first.id);
  },
  'one row with bm25 (set-up and bm25 statistics)': (expression) => {
    const first = get<{ id: number } | undefined>('SELECT rowid AS id FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT 1', expression);
    return first && get(`SELECT rowid, ${BM25} FROM decisions_fts f WHERE decisions_fts MATCH ? AND rowid >= ? AND rowid <= ?`, expression, first.id, first.id);
  },
  'each phrase walked alone (sum)': (_, phrases) => phrases.map((phrase) => get(`SELECT count(*) AS n FROM decisions_fts WHERE decisions_fts MATCH ?`, phrase)),
  'impact lists read and decoded': (_, phrases) => phrases.map((phrase) => {
    const row = get<{ listed: Buffer } | undefined>('SELECT listed FROM search_impacts WHERE phrase = ?', phrase);
    return row && decodeList(row.listed);
  }),
  'ranking from the lists\' terms (null where not proven)': (expression) => db.transaction(() => rankFromLists(db, expression, noFilter, pool))(),
  'top-k path (this tree)': (expression, phrases) => db.transaction(() => topKRanking(db, expression, phrases, noFilter, pool))(),
  ...(older ? { 'top-k path (before)': (expression: string, phrases: string[]) => beforeDb.transaction(() => older.topKRanking(beforeDb, expression, phrases, noFilter, pool))() } : {}),
};
const names = Object.keys(steps);
const samples = new Map(names.map((name) => [name, [] as number[]]));
const shape = { phrases: [] as number[], prefixes: [] as number[], matches: [] as number[] };
const queries = (arm ? mixed : legal).map((query) => {
  const planned = planQuery(db, query, true).groups;
  const groups = arm === 'typed' ? asTyped(planned) : planned;
  return { expression: matchExpression(groups, !arm), phrases: phrasesOf(groups) };
}).filter((query) => query.expression !== '');
const listsBefore = topKServed(db).fromLists;
const deeperBefore = { ...listsServed(db) };
for (const { expression, phrases } of queries) {
  compared('now', topKRanking)(expression, phrases);
  if (older) compared('before', older.topKRanking)(expression, phrases);
}
const fromLists = topKServed(db).fromLists - listsBefore;
const deeper = listsServed(db).deeper - deeperBefore.deeper;
const countedFromSets = listsServed(db).countedFromSets - deeperBefore.countedFromSets;
const threshold = listsServed(db).threshold - deeperBefore.threshold;
const entries = listsServed(db).entries - deeperBefore.entries;
for (const [index, { expression, phrases }] of queries.entries()) {
  const order = names.map((_, i) => names[(i + index) % names.length]);
  for (const name of order) {
    const started = performance.now();
    steps[name](expression, phrases);
    samples.get(name)!.push(performance.now() - started);
  }
  shape.phrases.push(phrases.length);
  shape.prefixes.push(phrases.filter((phrase) => phrase.endsWith('*')).length);
  shape.matches.push(get<{ n: number }>('SELECT count(*) AS n FROM decisions_fts WHERE decisions_fts MATCH ?', expression).n);
}
const table: (string | number)[][] = [[`step (${arm ? `hybrid's arm, ${arm}, OR` : 'keyword expression'}, pool ${pool})`, 'p50 ms', 'p95 ms', 'mean ms']];
for (const name of names) {
  const s = stats(samples.get(name)!);
  table.push([name, s.p50, s.p95, s.mean]);
}
printTable(table);
const m = stats(shape.matches);
console.log(`${queries.length} queries; phrases p50 ${stats(shape.phrases).p50}, prefix phrases p50 `
  + `${stats(shape.prefixes).p50}; matches p50 ${m.p50}, p95 ${m.p95}`);
console.log(`proven by the top-k path: this tree ${differing.proven.now} of ${queries.length} (from the lists' terms alone: ${fromLists}, of them by the threshold algorithm ${threshold}, after reading deeper rows ${deeper}, counted from the row sets ${countedFromSets}; list entries a ranking ${Math.round(entries / queries.length)}; differing from the full ranking: ${differing.now})`
  + (older ? `, before ${differing.proven.before} (differing: ${differing.before})` : '') + `; load ${load()}`);
db.close();
