/**
 * Hybrid's tail, query by query (issue [ranking] item 4; session 19): for each distinct query of the mixed speed list
 * (bench/search-queries.ts), the lexical arm of endpoint 10's hybrid at its first page's pool (40), its groups as
 * session 18 built them (the plan's, compounds split) and as hybrid-groups.ts builds them now (each alternative once,
 * norms without their unweighted words), interleaved and repeated (median of the rounds), with the path that ranked
 * it (top-k proven, declined: ranked in full), its matches, its phrases (the rows of each: `L` listed in the impact
 * lists, else read whole, `>1000` too many to read) and why the top-k path could not prove it where it declined (a
 * phrase read whole beyond 1,000 rows, or the bounds: the sum over the listed phrases of IDF x the saturation of the
 * best row left out). In-process on the serving connection. Never part of `npm test`.
 *
 *   node bench/hybrid-tail.ts --db .tmp/bench-100k-s4.db [--queries 60] [--rounds 5]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { printTable, searchService } from './lib.ts';
import { benchQueries } from './search-queries.ts';
import { planQuery } from '../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf, type TermGroup } from '../src/search/query.ts';
import { splitCompounds } from '../src/search/compound-parts.ts';
import { distinctAlternatives, hybridLexicalGroups, withoutUnmatchable } from '../src/search/hybrid-groups.ts';
import { filterSql } from '../src/search/filters.ts';
import { topKServed } from '../src/search/top-k.ts';
import { ftsTotals, idf } from '../src/search/impact-lists.ts';
import { FIRST_PAGE_POOL } from '../src/search/decision-search.ts';
import { lexicalArm } from '../src/search/lexical.ts';
import { sql } from '../src/db/statements.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, queries: { type: 'string', default: '60' }, rounds: { type: 'string', default: '5' },
} });
if (!values.db) {
  console.error('usage: node bench/hybrid-tail.ts --db CORPUS [--queries 60] [--rounds 5]');
  process.exit(2);
}
const service = await searchService(values.db);
const db = service.corpus;
const filters = filterSql({});
const rounds = Number(values.rounds);
const queries = [...new Set(benchQueries(Number(values.queries)).mixed)];
console.log(`hybrid's tail: ${queries.length} distinct queries, pool ${FIRST_PAGE_POOL}, ${rounds} rounds, ${values.db}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

/** The typed arm's groups as session 18 built them (before) and as hybridRanking builds them now (after). */
const forms = {
  before: (groups: TermGroup[], query: string) => asTyped(splitCompounds(db, 'decisions_fts', groups, query, true, 1)),
  after: (groups: TermGroup[], query: string) => withoutUnmatchable(db, distinctAlternatives(asTyped(hybridLexicalGroups(db, groups, query)))),
};
type Form = keyof typeof forms;

interface Measured { ms: number[]; path: string; matches: string; phrases: string[] }
const measured = new Map<string, Measured>();
const { rows: allRows } = ftsTotals(db);
const rowsOf = (phrase: string) => sql<[string], { rows: number; beyond: number }>(db, 'SELECT rows, beyond FROM search_impacts WHERE phrase = ?').get(phrase);
const readWhole = (phrase: string) => sql<[string], { n: number }>(db,
  'SELECT count(*) AS n FROM (SELECT 1 FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT 1001)').get(phrase)!.n;

for (let round = 0; round <= rounds; round++) {
  for (const [index, query] of queries.entries()) {
    const order: Form[] = (index + round) % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    for (const form of order) {
      db.transaction(() => {
        const typed = forms[form](planQuery(db, query, true).groups, query);
        const expression = matchExpression(typed, false);
        const phrases = phrasesOf(typed);
        const before = { ...topKServed(db) };
        const started = performance.now();
        const arm = lexicalArm(db, expression, filters, FIRST_PAGE_POOL, phrases);
        const ms = performance.now() - started;
        const after = topKServed(db);
        const key = `${form}\t${query}`;
        const held = measured.get(key) ?? { ms: [], path: '', matches: '', phrases };
        // The first round reads the query's pages into the caches: not timed.
        if (round > 0) held.ms.push(ms);
        held.path = after.proven > before.proven ? 'proven' : after.declined > before.declined ? 'declined' : 'none';
        held.matches = `${arm.total.value}${arm.total.is_floor ? '+' : ''}`;
        measured.set(key, held);
      })();
    }
  }
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
/** Why the top-k path declined an arm: a phrase too common to read whole, else the bound of rows outside the lists. */
function whyDeclined(phrases: string[]): string {
  const tooMany = phrases.filter((phrase) => !rowsOf(phrase) && readWhole(phrase) > 1000);
  if (tooMany.length > 0) return `read whole > 1,000: ${[...new Set(tooMany)].join(' ')}`;
  const bound = phrases.reduce((sum, phrase) => {
    const listed = rowsOf(phrase);
    return sum + (listed ? listed.beyond * idf(allRows, listed.rows) : 0);
  }, 0);
  return `bound of unlisted rows ${bound.toFixed(1)}`;
}
const phraseRows = (phrases: string[]) => [...new Set(phrases)].map((phrase) => {
  const listed = rowsOf(phrase);
  if (listed) return `${phrase} L${listed.rows}`;
  const n = readWhole(phrase);
  return `${phrase} ${n > 1000 ? '>1000' : n}`;
}).join(', ');

const table: (string | number)[][] = [['query', 'before ms', 'after ms', 'x', 'before path', 'after path', 'matches before / after', 'phrases before / after']];
const totals = { before: [] as number[], after: [] as number[] };
for (const query of queries) {
  const before = measured.get(`before\t${query}`)!;
  const after = measured.get(`after\t${query}`)!;
  totals.before.push(median(before.ms));
  totals.after.push(median(after.ms));
  table.push([query.length > 40 ? `${query.slice(0, 39)}…` : query, median(before.ms).toFixed(1), median(after.ms).toFixed(1),
    (median(after.ms) / median(before.ms)).toFixed(2), before.path, after.path, `${before.matches} / ${after.matches}`,
    `${before.phrases.length} / ${after.phrases.length}`]);
}
table.sort((a, b) => Number(b[1]) - Number(a[1]));
printTable(table);
const sum = (samples: number[]) => samples.reduce((a, b) => a + b, 0);
console.log(`sum of medians: before ${sum(totals.before).toFixed(0)} ms, after ${sum(totals.after).toFixed(0)} ms (${(sum(totals.after) / sum(totals.before)).toFixed(2)}x)`);

console.log('\nthe arms ranked in full after (top-k declined): phrases (rows; L listed) and why');
for (const query of queries) {
  const after = measured.get(`after\t${query}`)!;
  if (after.path !== 'declined') continue;
  console.log(`- ${query} (${median(after.ms).toFixed(1)} ms, ${after.matches} matches): ${whyDeclined(after.phrases)}\n    ${phraseRows(after.phrases)}`);
}
console.log(`load at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
service.close();
