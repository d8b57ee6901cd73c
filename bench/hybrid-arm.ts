/**
 * Hybrid's lexical arm ordered from complete lists (src/search/hybrid-arm.ts, session 21) against the same arm as
 * lexicalArm ranks it (the top-k path's tries, else FTS5 over every match), per distinct query of the mixed speed list
 * (bench/search-queries.ts): the typed arm at the first page's pool (40) as hybridRanking writes it, interleaved (the
 * order alternating), median of the rounds, on the serving connection, with the answers compared (rows in order and
 * count). In-process; never part of `npm test`.
 *
 *   node bench/hybrid-arm.ts --db .tmp/bench-100k.db [--queries 200] [--rounds 5] [--top 12]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { printTable, searchService } from './lib.ts';
import { benchQueries } from './search-queries.ts';
import { FIRST_PAGE_POOL } from '../src/search/decision-search.ts';
import { filterSql } from '../src/search/filters.ts';
import { armsOrdered, hybridArm } from '../src/search/hybrid-arm.ts';
import { distinctAlternatives, hybridLexicalGroups, withoutUnmatchable } from '../src/search/hybrid-groups.ts';
import { lexicalArm } from '../src/search/lexical.ts';
import { planQuery } from '../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf } from '../src/search/query.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, queries: { type: 'string', default: '200' }, rounds: { type: 'string', default: '5' }, top: { type: 'string', default: '12' },
} });
if (!values.db) {
  console.error('usage: node bench/hybrid-arm.ts --db CORPUS [--queries 200] [--rounds 5] [--top 12]');
  process.exit(2);
}
const service = await searchService(values.db);
const db = service.corpus;
const filters = filterSql({});
const rounds = Number(values.rounds);
const queries = [...new Set(benchQueries(Number(values.queries)).mixed)];
console.log(`hybrid's typed arm, pool ${FIRST_PAGE_POOL}: ${queries.length} distinct queries, ${rounds} rounds, ${values.db}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

const arms = queries.map((query) => db.transaction(() => {
  const groups = withoutUnmatchable(db, distinctAlternatives(asTyped(hybridLexicalGroups(db, planQuery(db, query, true).groups, query))));
  return { query, expression: matchExpression(groups, false), phrases: phrasesOf(groups) };
})());
const ways = {
  ranked: (arm: typeof arms[number]) => lexicalArm(db, arm.expression, filters, FIRST_PAGE_POOL, arm.phrases),
  ordered: (arm: typeof arms[number]) => hybridArm(db, arm.expression, filters, FIRST_PAGE_POOL, arm.phrases),
};
const times = arms.map(() => ({ ranked: [] as number[], ordered: [] as number[] }));
let same = 0;
const before = { ...armsOrdered(db) };
for (let round = 0; round <= rounds; round++) {
  arms.forEach((arm, index) => {
    const answers: Record<string, string> = {};
    for (const way of (index + round) % 2 === 0 ? ['ranked', 'ordered'] as const : ['ordered', 'ranked'] as const) {
      const started = performance.now();
      answers[way] = JSON.stringify(ways[way](arm));
      // The first round reads the arms' pages into the caches: not timed.
      if (round > 0) times[index]![way].push(performance.now() - started);
    }
    if (round === 0 && answers.ranked === answers.ordered) same++;
  });
}
const after = armsOrdered(db);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1]!;
const rows = arms.map((arm, index) => ({ query: arm.query, ranked: median(times[index]!.ranked), ordered: median(times[index]!.ordered) }))
  .sort((a, b) => b.ranked - a.ranked);
printTable([['query (typed arm, pool 40)', 'ranked ms', 'ordered ms', 'x'],
  ...rows.slice(0, Number(values.top)).map((row) => [row.query, row.ranked.toFixed(2), row.ordered.toFixed(2), (row.ordered / row.ranked).toFixed(2)]),
  [`sum of the ${rows.length} medians`, rows.reduce((sum, row) => sum + row.ranked, 0).toFixed(1), rows.reduce((sum, row) => sum + row.ordered, 0).toFixed(1),
    (rows.reduce((sum, row) => sum + row.ordered, 0) / rows.reduce((sum, row) => sum + row.ranked, 0)).toFixed(2)]]);
console.log(`same answers ${same}/${arms.length}; ordered from the lists ${after.ordered - before.ordered}, declined ${after.declined - before.declined}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
service.close();
