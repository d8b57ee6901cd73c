/**
 * The top-k path (src/search/top-k.ts) beside the full BM25 ranking, on one connection and page cache, interleaved
 * query by query (issue [ranking] item 4, [scale] item 3):
 *
 *   node bench/topk.ts --db .tmp/bench-100k.db [--requests 200]
 *
 * Opens the corpus read-only (never writes it: the shared corpora may be used as they are); a file without impact
 * lists is ranked in full every time (open a copy writable once to build them). Rows: the ranking
 * of decision rows alone (rankDecisionRows) for keyword's expression with a page of 20 and with ten pages (200),
 * and for hybrid's lexical arm (the words as typed, OR'd; and widened, OR'd; pool 200); then GET /decisions/search
 * keyword and hybrid over HTTP with the answer cache emptied before each call. Each query runs both ways and the two
 * answers are compared (they must be identical); "proven" is the share the top-k path answered itself.
 */
import { execSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { openCorpus } from '../src/corpus/open.ts';
import { filterSql } from '../src/search/filters.ts';
import { planQuery } from '../src/search/plan.ts';
import { asTyped, matchExpression, phrasesOf, type TermGroup } from '../src/search/query.ts';
import { rankDecisionRows } from '../src/search/rank-helper.ts';
import { COUNT_CAP } from '../src/search/rank-range.ts';
import { topKServed, withoutTopK } from '../src/search/top-k.ts';
import { clearAnswers } from '../src/search/answer-cache.ts';
import { benchQueries } from './search-queries.ts';
import { httpGet, printTable, searchService, stats, timeInterleaved } from './lib.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, requests: { type: 'string', default: '200' } } });
if (!values.db) {
  console.error('usage: node bench/topk.ts --db CORPUS [--requests N]');
  process.exit(2);
}
const load = () => execSync('uptime').toString().trim().replace(/.*load average: /u, '');
console.log(`${new Date().toISOString()}, node ${process.version}, load ${load()}`);
const reader = openCorpus(values.db, { readonly: true });
// Lists of session 19 hold their rows' terms too (a column older files do not have).
const withTerms = reader.prepare(`SELECT count(*) FROM pragma_table_info('search_impacts') WHERE name = 'terms'`).pluck().get() === 1;
const size = reader.prepare(`SELECT count(*) AS lists, coalesce(sum(length(listed) + length(phrase) + 16), 0)
  + ${withTerms ? 'coalesce(sum(length(terms)), 0)' : '0'} AS bytes FROM search_impacts`).get() as { lists: number; bytes: number };
reader.close();
console.log(`${size.lists} impact lists, ${(size.bytes / 1e6).toFixed(1)} MB of rows (before the table's b-tree pages)`);

const requests = Number(values.requests);
const { services, corpus, url, authorization, close } = await searchService(values.db);
const { legal, mixed } = benchQueries(requests);
const noFilter = filterSql({});

interface Kind { name: string; queries: string[]; groups: (query: string) => TermGroup[]; all: boolean; pool: number }
const plans = new Map<string, TermGroup[]>();
const planned = (query: string) => plans.get(query) ?? plans.set(query, planQuery(corpus, query, true).groups).get(query)!;
const kinds: Kind[] = [
  { name: 'keyword, page of 20', queries: legal, groups: planned, all: true, pool: 20 },
  { name: 'keyword, ten pages (200)', queries: legal, groups: planned, all: true, pool: 200 },
  { name: 'hybrid lexical arm, as typed, OR (200)', queries: mixed, groups: (query) => asTyped(planned(query)), all: false, pool: 200 },
  { name: 'hybrid lexical arm, widened, OR (200)', queries: mixed, groups: planned, all: false, pool: 200 },
];
const table: (string | number)[][] = [['measure', 'full p50 ms', 'top-k p50 ms', 'x', 'full p95 ms', 'top-k p95 ms', 'x', 'proven', 'identical']];
const row = (name: string, full: number[], fast: number[], proven: string, identical: string) => {
  const [a, b] = [stats(full), stats(fast)];
  table.push([name, a.p50, b.p50, (a.p50 / b.p50).toFixed(2), a.p95, b.p95, (a.p95 / b.p95).toFixed(2), proven, identical]);
};
for (const kind of kinds) {
  let same = 0;
  let compared = 0;
  const before = { ...topKServed(corpus) };
  const answers = new Map<string, string>();
  const rank = (query: string, withPhrases: boolean) => {
    const groups = kind.groups(query);
    const expression = matchExpression(groups, kind.all);
    if (expression === '') return '';
    const ranking = rankDecisionRows(corpus, expression, noFilter, kind.pool, withPhrases ? phrasesOf(groups) : undefined);
    // Two halves count up to COUNT_CAP + 1 each (rank-helper.ts): the count as the arm reads it (capped).
    return JSON.stringify({ ...ranking, matches: Math.min(ranking.matches, COUNT_CAP + 1) });
  };
  const [full, fast] = await timeInterleaved(kind.queries, [
    (query) => answers.set(query, rank(query, false)),
    (query) => {
      const answer = rank(query, true);
      compared++;
      if (answer === answers.get(query)) same++;
    },
  ], 20);
  const served = topKServed(corpus);
  const asked = served.proven - before.proven + served.declined - before.declined;
  row(`ranking: ${kind.name}`, full, fast, `${(100 * (served.proven - before.proven) / asked).toFixed(0)}%`, `${same}/${compared}`);
}
const overHttp = (mode: string) => async (query: string) => {
  clearAnswers(corpus);
  const response = await httpGet(`${url}/api/v1/decisions/search?${new URLSearchParams({ query, mode })}`, { authorization: authorization() });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  return response.body;
};
for (const [mode, queries] of [['keyword', legal], ['hybrid', mixed]] as const) {
  const before = { ...topKServed(corpus) };
  const [full, fast] = await timeInterleaved(queries, [(query) => withoutTopK(corpus, () => overHttp(mode)(query)), overHttp(mode)], 20);
  const served = topKServed(corpus);
  const asked = served.proven - before.proven + served.declined - before.declined;
  row(`${mode}: HTTP GET /decisions/search`, full, fast, `${(100 * (served.proven - before.proven) / Math.max(1, asked)).toFixed(0)}% of rankings`, '');
}
printTable(table);
console.log(`${requests} queries per row (20 untimed first), load ${load()}`);
close();
