/**
 * The search page beside its ranking (issue [ranking] item 4, Session 18): for keyword and hybrid queries ranked once
 * beforehand, the page of 20 results (the decisions' rows, chunks and texts, passages, snippets, Randnummern) and
 * frequently_cited_by_results, this tree against an older checkout, each on a read-only connection of its own,
 * interleaved query by query (the order alternating), with the texts of earlier pages forgotten (a new page) and
 * kept; the answers compared. Wall time and the process's CPU time (user + system: less moved by other processes on
 * a shared machine). With `node --expose-gc`, also the JS heap each new page leaves to collect.
 *
 *   node --expose-gc bench/search-page.ts --db .tmp/bench-100k.db --before DIR [--queries 120] [--passes 3] [--modes keyword,hybrid] [--fresh]
 *
 * --fresh (Session 19): instead, for each query a page of the first 20 decisions of its ranking that no earlier page
 * showed: their rows, chunks and Randnummern read from the file (the OS's cache) into the connection's, as a server
 * meets decisions it has not shown before (its cache holds a fraction of a large corpus; the bench's other rows read
 * pages its untimed first pass has read). One pass; the order of the trees alternates (the second reads what the OS
 * already holds from the first).
 *
 * --before-db FILE (Session 20): the older checkout reads this copy of the corpus (its texts as its code stored them).
 *
 * DIR: `git archive 55469c4 | tar -x -C DIR`. A tree without pageAnswer (decision-search.ts) builds the page with
 * pageItems and frequentlyCitedByResults, as its answerDecisions did.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { printTable, stats } from './lib.ts';
import { benchQueries } from './search-queries.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, before: { type: 'string' }, queries: { type: 'string', default: '120' }, passes: { type: 'string', default: '3' },
  modes: { type: 'string', default: 'keyword,hybrid' }, fresh: { type: 'boolean', default: false }, 'before-db': { type: 'string' },
} });
if (!values.db || !values.before) {
  console.error('usage: node [--expose-gc] bench/search-page.ts --db CORPUS --before DIR [--queries N] [--passes N]');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc;
type Mode = 'keyword' | 'hybrid';

/** A tree's page builder over its own connection, for the queries of both modes ranked once. */
async function tree(root: string, queries: Record<Mode, string[]>, corpus: string) {
  const load = (path: string) => import(pathToFileURL(join(resolve(root), path)).href);
  const [search, cited, open, texts] = await Promise.all([load('src/search/decision-search.ts'),
    load('src/search/cited-by-results.ts'), load('src/corpus/open.ts'), load('src/search/page-texts.ts')]);
  const db = open.openCorpus(corpus, { readonly: true });
  const rankings: Record<Mode, unknown[]> = { keyword: [], hybrid: [] };
  for (const mode of ['keyword', 'hybrid'] as Mode[]) {
    for (const query of queries[mode]) {
      const args = { query, mode, bridge: true, depth: 20 };
      const qv = await search.queryVectorFor(db, args, true, null);
      rankings[mode].push(db.transaction(() => search.rankDecisions(db, args, true, qv))());
    }
  }
  /**
   * The page of query `index` made of the first 20 decisions of its ranking (400 deep) that no earlier query's page
   * of this kind showed (`shown`, the same list for both trees): decisions this connection has not read. Wall and CPU
   * ms, the answer.
   */
  const freshPage = async (mode: Mode, index: number, shown: Set<string>) => {
    texts.dropPageTexts(db);
    const args = { query: queries[mode][index], mode, bridge: true, depth: 400 };
    const qv = await search.queryVectorFor(db, args, true, null);
    return db.transaction(() => {
      const ranking = search.rankDecisions(db, args, true, qv);
      const unseen = ranking.decisions.filter((entry: { decision_id: string }) => !shown.has(entry.decision_id)).slice(0, 20);
      const started = performance.now();
      const startedCpu = process.cpuUsage();
      const answer = search.pageAnswer(db, { ...ranking, decisions: unseen }, 0, 20);
      const used = process.cpuUsage(startedCpu);
      return { ms: performance.now() - started, cpu: (used.user + used.system) / 1000, answer, ids: unseen.map((entry: { decision_id: string }) => entry.decision_id) };
    })();
  };
  return {
    db,
    freshPage,
    dropTexts: () => texts.dropPageTexts(db),
    page: (mode: Mode, index: number) => db.transaction(() => {
      if (search.pageAnswer) return search.pageAnswer(db, rankings[mode][index], 0, 20);
      const items = search.pageItems(db, rankings[mode][index], 0, 20, false) as { id: string }[];
      return { results: items, frequently_cited_by_results: cited.frequentlyCitedByResults(db, items.map((item) => item.id)) };
    })(),
  };
}

const count = Number(values.queries);
const { legal, mixed } = benchQueries(count);
const modes = values.modes.split(',') as Mode[];
const queries: Record<Mode, string[]> = { keyword: modes.includes('keyword') ? [...new Set(legal)] : [], hybrid: modes.includes('hybrid') ? [...new Set(mixed)] : [] };
const trees = [{ label: 'before', ...await tree(values.before, queries, values['before-db'] ?? values.db) },
  { label: 'this tree', ...await tree('.', queries, values.db) }];
const heapUsed = () => v8.getHeapStatistics().used_heap_size;

if (values.fresh) {
  for (const mode of modes) {
    const list = queries[mode];
    const times = trees.map((): number[] => []);
    const cpu = trees.map((): number[] => []);
    let same = 0;
    const shown = new Set<string>();
    for (let index = 0; index < list.length; index++) {
      const answers: string[] = [];
      let ids: string[] = [];
      for (const which of index % 2 === 0 ? [0, 1] : [1, 0]) {
        const page = await trees[which].freshPage(mode, index, shown);
        times[which].push(page.ms);
        cpu[which].push(page.cpu);
        answers[which] = JSON.stringify(page.answer);
        ids = page.ids;
      }
      for (const id of ids) shown.add(id);
      if (answers[0] === answers[1]) same++;
    }
    const rows: (string | number)[][] = [[`${mode}: page of 20 decisions not read before`, 'p50 ms', 'p95 ms', 'mean ms', 'x before p50', 'CPU p50 ms', 'CPU p95 ms', 'x before CPU p50']];
    for (const [which, { label }] of trees.entries()) {
      const s = stats(times[which]);
      const c = stats(cpu[which]);
      rows.push([label, s.p50, s.p95, s.mean.toFixed(3), (s.p50 / stats(times[0]).p50).toFixed(2), c.p50, c.p95, (c.p50 / stats(cpu[0]).p50).toFixed(2)]);
    }
    console.log(`\n${mode}: ${list.length} queries, pages of decisions no earlier page showed, trees interleaved (order alternating), identical answers ${same}/${list.length}`);
    printTable(rows);
  }
  for (const { db } of trees) db.close();
  process.exit(0);
}

for (const mode of modes) {
  const list = queries[mode];
  // [tree][new page, kept texts]
  const times = trees.map(() => [[] as number[], [] as number[]]);
  const cpu = trees.map(() => [[] as number[], [] as number[]]);
  const heap = trees.map((): number[] => []);
  let same = 0;
  const passes = Number(values.passes);
  for (let pass = 0; pass < passes; pass++) {
    for (let index = 0; index < list.length; index++) {
      const answers: string[] = [];
      for (const which of index % 2 === 0 ? [0, 1] : [1, 0]) {
        const { dropTexts, page } = trees[which];
        for (const kept of [false, true]) {
          if (!kept) dropTexts();
          if (gc && !kept) gc();
          const before = heapUsed();
          const started = performance.now();
          const startedCpu = process.cpuUsage();
          const answer = page(mode, index);
          const ms = performance.now() - started;
          const used = process.cpuUsage(startedCpu);
          // The first pass reads the corpus's pages into the caches and warms the code: untimed.
          if (pass > 0) times[which][kept ? 1 : 0].push(ms);
          if (pass > 0) cpu[which][kept ? 1 : 0].push((used.user + used.system) / 1000);
          if (pass > 0 && gc && !kept) heap[which].push((heapUsed() - before) / 1024);
          answers[which] = JSON.stringify(answer);
        }
      }
      if (pass === 0 && answers[0] === answers[1]) same++;
    }
  }
  const rows: (string | number)[][] = [[`${mode}: page of 20 and frequently_cited_by_results`, 'p50 ms', 'p95 ms', 'x before p50',
    'CPU p50 ms', 'CPU mean ms', 'x before CPU p50', gc ? 'heap KB p50' : '']];
  for (const [kept, label] of ['new page (texts forgotten)', 'texts kept from earlier pages'].entries()) {
    const base = stats(times[0][kept]).p50;
    const cpuBase = stats(cpu[0][kept]).p50;
    for (const [which, { label: name }] of trees.entries()) {
      const s = stats(times[which][kept]);
      const c = stats(cpu[which][kept]);
      rows.push([`${name}, ${label}`, s.p50, s.p95, (s.p50 / base).toFixed(2), c.p50, c.mean.toFixed(3), (c.p50 / cpuBase).toFixed(2),
        gc && kept === 0 ? stats(heap[which]).p50.toFixed(0) : '']);
    }
  }
  console.log(`\n${mode}: ${list.length} queries, ${passes - 1} timed passes after an untimed one, trees interleaved (order alternating), identical answers ${same}/${list.length}`);
  printTable(rows);
}
for (const { db } of trees) db.close();
