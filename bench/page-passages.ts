/**
 * The passages step of a result page for new queries (Session 20): for each query, the page of its first 20 decisions
 * (their texts read beforehand, untimed) and lexicalPassages for each (the query's words found in every chunk, the
 * chunks chosen), this tree against an older checkout, each on its own read-only connection, interleaved query by
 * query (the order alternating). Every query is new to both trees' patterns only the first time its stems are met:
 * the lists repeat the bench's topics, so later queries often reuse a pattern (as a server's would). The chosen
 * passages are compared.
 *
 *   node bench/page-passages.ts --db CORPUS --before DIR [--queries 600] [--mode keyword|hybrid] [--before-db FILE]
 *
 * DIR: `git archive HEAD | tar -x -C DIR` before the change (node_modules linked).
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { printTable, stats } from './lib.ts';
import { benchQueries } from './search-queries.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, before: { type: 'string' }, queries: { type: 'string', default: '600' }, mode: { type: 'string', default: 'keyword' },
  'before-db': { type: 'string' },
} });
if (!values.db || !values.before) {
  console.error('usage: node bench/page-passages.ts --db CORPUS --before DIR [--queries N] [--mode keyword|hybrid]');
  process.exit(2);
}
const mode = values.mode as 'keyword' | 'hybrid';

/** A tree's ranking, page and passages over its own connection. */
async function tree(root: string, corpus: string) {
  const load = (path: string) => import(pathToFileURL(join(resolve(root), path)).href);
  const [search, open, chunks, lexical] = await Promise.all([load('src/search/decision-search.ts'), load('src/corpus/open.ts'),
    load('src/search/page-chunks.ts'), load('src/search/lexical.ts')]);
  const db = open.openCorpus(corpus, { readonly: true });
  /** Wall ms of the passages of the query's page, and the passages. */
  return (query: string) => {
    const ranking = db.transaction(() => search.rankDecisions(db, { query, mode, bridge: true, depth: 20 }, true, null))();
    const ids: string[] = ranking.decisions.slice(0, 20).map((entry: { decision_id: string }) => entry.decision_id);
    const groups = ranking.plan.groups;
    const page = new chunks.PageChunks(db, ids, groups);
    const started = performance.now();
    const passages = ids.map((id) => lexical.lexicalPassages(page, id, groups));
    return { ms: performance.now() - started, passages: JSON.stringify(passages) };
  };
}

const { legal, mixed } = benchQueries(Number(values.queries));
const queries = [...new Set(mode === 'keyword' ? legal : mixed)];
const trees = [{ label: 'before', run: await tree(values.before, values['before-db'] ?? values.db) }, { label: 'this tree', run: await tree('.', values.db) }];
const times = trees.map((): number[] => []);
let same = 0;
for (const [index, query] of queries.entries()) {
  const answers: string[] = [];
  for (const which of index % 2 === 0 ? [0, 1] : [1, 0]) {
    const { ms, passages } = trees[which].run(query);
    times[which].push(ms);
    answers[which] = passages;
  }
  if (answers[0] === answers[1]) same++;
}
console.log(`${mode}: ${queries.length} queries, trees interleaved (order alternating), identical passages ${same}/${queries.length}`);
const rows: (string | number)[][] = [[`${mode}: passages of a page of 20`, 'p50 ms', 'p95 ms', 'mean ms', 'x before p50', 'x before mean']];
for (const [which, { label }] of trees.entries()) {
  const s = stats(times[which]);
  rows.push([label, s.p50, s.p95, s.mean.toFixed(3), (s.p50 / stats(times[0]).p50).toFixed(2), (s.mean / stats(times[0]).mean).toFixed(2)]);
}
printTable(rows);
