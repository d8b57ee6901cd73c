/**
 * Keyword and hybrid over HTTP, two services side by side in one process, interleaved query by query in alternating
 * order (new queries: answer cache and kept page texts emptied before each), answers compared (page 1's ids and the
 * count): a = corpus --a served by an older checkout (--before DIR, `git archive REV | tar -x -C DIR`; else this
 * tree), b = corpus --b (else --a) served by this tree; hybrid's arms ordered from complete lists (hybrid-arm.ts)
 * counted per tree. Session 18: the fresh import's empty top-k lists against a copy
 * whose lists were built anew (--a FRESH --b COPY), and hybrid's first page before and after (--before). Never part of
 * `npm test`.
 *
 *   node bench/hybrid-speed.ts --a .tmp/bench-100k-s4.db [--b OTHER.db] [--before .tmp/base] [--queries 120] [--modes keyword,hybrid]
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { httpGet, printTable, searchService, stats } from './lib.ts';
import { benchQueries } from './search-queries.ts';
import { clearAnswers } from '../src/search/answer-cache.ts';
import { dropPageTexts } from '../src/search/page-texts.ts';
import { topKServed } from '../src/search/top-k.ts';
import { armsOrdered } from '../src/search/hybrid-arm.ts';

const { values } = parseArgs({ options: {
  a: { type: 'string' }, b: { type: 'string' }, before: { type: 'string' }, queries: { type: 'string', default: '120' },
  modes: { type: 'string', default: 'keyword,hybrid' },
} });
if (!values.a) {
  console.error('usage: node bench/hybrid-speed.ts --a CORPUS [--b CORPUS] [--before DIR] [--queries N] [--modes keyword,hybrid]');
  process.exit(2);
}
/** A tree's modules the bench uses (each tree keeps its answer cache and page texts in its own modules). */
const treeOf = async (dir: string) => ({
  // Hybrid's arms ordered from complete lists (session 21; an older tree has none).
  armsOrdered: await import(pathToFileURL(resolve(dir, 'src/search/hybrid-arm.ts')).href)
    .then((module: { armsOrdered: typeof armsOrdered }) => module.armsOrdered, () => null),
  ...await import(pathToFileURL(resolve(dir, 'bench/lib.ts')).href) as { searchService: typeof searchService },
  ...await import(pathToFileURL(resolve(dir, 'src/search/answer-cache.ts')).href) as { clearAnswers: typeof clearAnswers },
  ...await import(pathToFileURL(resolve(dir, 'src/search/page-texts.ts')).href) as { dropPageTexts: typeof dropPageTexts },
  ...await import(pathToFileURL(resolve(dir, 'src/search/top-k.ts')).href) as { topKServed: typeof topKServed },
});
const trees = [values.before ? await treeOf(values.before) : { armsOrdered, searchService, clearAnswers, dropPageTexts, topKServed },
  { armsOrdered, searchService, clearAnswers, dropPageTexts, topKServed }];
const services = [await trees[0].searchService(values.a), await trees[1].searchService(values.b ?? values.a)];
const { legal, mixed } = benchQueries(Number(values.queries));
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; a = ${values.a} (${values.before ?? 'this tree'}), b = ${values.b ?? values.a} (this tree)`);
const table: (string | number)[][] = [['measure', 'p50 ms', 'p95 ms', 'mean ms', 'x a p50', 'top-k proven / declined', 'arms from lists', 'same answers']];
const modes = values.modes.split(',');
for (const [mode, queries] of ([['keyword', legal], ['hybrid', mixed]] as const).filter(([mode]) => modes.includes(mode))) {
  const samples: [number[], number[]] = [[], []];
  const lay: [number[], number[]] = [[], []];
  let same = 0;
  const before = services.map((service, at) => ({ ...trees[at].topKServed(service.corpus) }));
  const orderedBefore = services.map((service, at) => trees[at].armsOrdered?.(service.corpus).ordered ?? 0);
  for (const [index, query] of queries.entries()) {
    const answers: string[] = [];
    // The order alternates every two queries (the mixed list alternates legal and lay).
    for (const at of index % 4 < 2 ? [0, 1] : [1, 0]) {
      const service = services[at];
      trees[at].clearAnswers(service.corpus);
      trees[at].dropPageTexts(service.corpus);
      const started = performance.now();
      const response = await httpGet(`${service.url}/api/v1/decisions/search?${new URLSearchParams({ query, mode })}`, { authorization: service.authorization() });
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      const body = JSON.parse(response.body) as { results: { id: string }[]; total_available: unknown };
      answers[at] = JSON.stringify([body.results.map((item) => item.id), body.total_available]);
      if (index < 10) continue;
      samples[at].push(ms);
      if (mode === 'hybrid' && index % 2 === 1) lay[at].push(ms);
    }
    if (index >= 10 && answers[0] === answers[1]) same++;
  }
  const base = stats(samples[0]).p50;
  for (const at of [0, 1]) {
    const s = stats(samples[at]);
    const served = trees[at].topKServed(services[at].corpus);
    table.push([`${mode}: ${at === 0 ? 'a' : 'b'}`, s.p50, s.p95, s.mean, (s.p50 / base).toFixed(2),
      `${served.proven - before[at].proven} / ${served.declined - before[at].declined}`,
      trees[at].armsOrdered ? String(trees[at].armsOrdered!(services[at].corpus).ordered - orderedBefore[at]) : '-', `${same}/${samples[at].length}`]);
  }
  if (mode === 'hybrid') {
    for (const at of [0, 1]) {
      const s = stats(lay[at]);
      table.push([`hybrid, lay queries: ${at === 0 ? 'a' : 'b'}`, s.p50, s.p95, s.mean, (s.p50 / stats(lay[0]).p50).toFixed(2), '', '', '']);
    }
  }
}
printTable(table);
console.log(`load at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const service of services) service.close();
