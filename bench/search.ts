/**
 * Search speed through HTTP (issue [search]): keyword, hybrid and semantic GET /decisions/search against the raw
 * FTS5 query, in one run (bench/peers/speed.ts puts keyword and hybrid beside Xapian):
 *
 *   node bench/generate.ts --count 100000 --out .tmp/gen-100k
 *   node bin/juralite import --db .tmp/search-100k.db .tmp/gen-100k     (or: cp a corpus, then upgrade it below)
 *   node bench/search.ts --db .tmp/search-100k.db [--requests 300] [--upgrade]
 *
 * --upgrade first opens the corpus for writing (builds the FTS5 index and the decision vectors when its search index
 * is older) and prints how long that took. Rows per mode: the operation in-process and the full HTTP round trip
 * (auth, rate limit, ledger transaction, JSON). The raw FTS5 query: BM25 with the same column weights over
 * decisions_fts (what keyword mode ranks), the best 20 decisions with their rows, with the query's stems alone and with
 * keyword mode's own expression (alone and with its count of matches), in-process, and served by a bare node:http
 * server (the floor of any HTTP answer). Queries: one or two words of one
 * topic of the generator (legal register) and lay phrasings of the same matters, drawn with a fixed seed; the same
 * list in every row of a kind (bench/search-queries.ts). The answer cache is emptied before every call: these rows
 * time the search itself (bench/peers/speed.ts times a repeated query too).
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { upgradeCorpus } from '../src/corpus/open.ts';
import { rankHelperServed, withoutRankHelper } from '../src/search/rank-helper.ts';
import { searchDecisions, type SearchMode } from '../src/search/decision-search.ts';
import { tokenize } from '../src/search/analyze.ts';
import { CHUNK_WEIGHTS, COUNT_CAP } from '../src/search/rank-range.ts';
import { planQuery } from '../src/search/plan.ts';
import { matchExpression } from '../src/search/query.ts';
import { recordedEmbedder } from '../src/search/embedder.ts';
import { clearAnswers } from '../src/search/answer-cache.ts';
import { benchQueries } from './search-queries.ts';
import { httpGet, printTable, searchService, stats, timeEach, timeInterleaved } from './lib.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, requests: { type: 'string', default: '300' }, upgrade: { type: 'boolean', default: false },
  'keyword-only': { type: 'boolean', default: false },
} });
if (!values.db) {
  console.error('usage: node bench/search.ts --db CORPUS [--requests N] [--upgrade] [--keyword-only]');
  process.exit(2);
}
if (values.upgrade) {
  const started = performance.now();
  upgradeCorpus(values.db);
  console.log(`upgrade (search index and vectors, where older): ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const requests = Number(values.requests);
const { services, corpus, url, authorization, close } = await searchService(values.db);

const { legal: legalQueries, mixed: mixedQueries } = benchQueries(requests);

// The raw FTS5 queries: BM25 with the same column weights over decisions_fts (what keyword mode ranks), the best 20
// decisions with their rows; once with the query's stems alone (all required), once with the expression keyword mode
// sends (prefixes and compound alternatives, made before timing: planning is the service's work), and that plus the
// count of matches keyword mode runs for total_available when a page is full.
const rawFts = corpus.prepare(`
  SELECT d.id, d.aktenzeichen, d.court, d.date, d.title, r.score
  FROM (SELECT rowid, bm25(decisions_fts, ${CHUNK_WEIGHTS.join(', ')}) AS score FROM decisions_fts WHERE decisions_fts MATCH ? ORDER BY score LIMIT 20) r
  JOIN search_docs s ON s.doc_id = r.rowid JOIN decisions d ON d.id = s.decision_id ORDER BY r.score`);
const rawCount = corpus.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM decisions_fts WHERE decisions_fts MATCH ? LIMIT ?)');
const stemsExpression = (query: string) => tokenize(query).map((token) => `"${token.stem}"`).join(' ');
const keywordExpressions = new Map(legalQueries.map((query) => [query, matchExpression(planQuery(corpus, query, true).groups, true)]));
const raw = (query: string) => rawFts.all(stemsExpression(query));
const rawKeyword = (query: string) => rawFts.all(keywordExpressions.get(query)!);
const rawKeywordCounted = (query: string) => [rawFts.all(keywordExpressions.get(query)!), rawCount.get(keywordExpressions.get(query)!, COUNT_CAP + 1)];

const bare = createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(rawKeywordCounted(url.searchParams.get('q')!)));
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
bare.keepAliveTimeout = 600_000;
const ok = (response: { status: number; body: string }) => {
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
};
const inProcess = (mode: SearchMode) => async (query: string) => {
  clearAnswers(corpus);
  return JSON.stringify(await searchDecisions(corpus, { query, mode, limit: 20, page: 1, bridge: true }, services.config.embeddings));
};
// Keyword mode ranking in one thread: the same connection (and page cache) with its rank helper set aside.
const oneThread = (query: string) => withoutRankHelper(corpus, () => inProcess('keyword')(query));
const overHttp = (mode: SearchMode, filters: Record<string, string> = {}) => async (query: string) => {
  clearAnswers(corpus);
  ok(await httpGet(`${url}/api/v1/decisions/search?${new URLSearchParams({ query, mode, ...filters })}`, { authorization: authorization() }));
};

// The raw queries and keyword mode run interleaved, query by query: their ratios are the figures that matter, and this
// machine's speed drifts by a third within minutes.
const interleaved: [string, (query: string) => unknown][] = [
  ['raw FTS5 query, stems (20 decisions)', raw],
  ['raw FTS5 query, keyword expression', rawKeyword],
  ['raw FTS5 query, keyword expression + count', rawKeywordCounted],
  ['raw expression + count over bare HTTP', async (q) => ok(await httpGet(`${bareUrl}/?q=${encodeURIComponent(q)}`, {}))],
  ['keyword: operation in-process, one thread', oneThread],
  ['keyword: operation in-process', inProcess('keyword')],
  ['keyword: HTTP GET /decisions/search', overHttp('keyword')],
];
const samples = await timeInterleaved(legalQueries, interleaved.map(([, run]) => run));
const measures: [string, number[]][] = interleaved.map(([name], index) => [name, samples[index]]);
const modes: [SearchMode, string[]][] = [['hybrid', mixedQueries], ['semantic', mixedQueries]];
if (!values['keyword-only']) {
  for (const [mode, queries] of modes) {
    measures.push([`${mode}: operation in-process`, await timeEach(queries, inProcess(mode))]);
    measures.push([`${mode}: HTTP GET /decisions/search`, await timeEach(queries, overHttp(mode))]);
  }
  measures.push(['keyword, court=BGH: HTTP', await timeEach(legalQueries, overHttp('keyword', { court: 'BGH' }))]);
  measures.push(['keyword, date range: HTTP', await timeEach(legalQueries, overHttp('keyword', { date_from: '2010-01-01', date_to: '2019-12-31' }))]);
  measures.push(['semantic, court=BGH: HTTP', await timeEach(mixedQueries, overHttp('semantic', { court: 'BGH' }))]);
  measures.push(['hybrid, date range: HTTP', await timeEach(mixedQueries, overHttp('hybrid', { date_from: '2010-01-01', date_to: '2019-12-31' }))]);
}

const counts = corpus.prepare(`SELECT (SELECT count(*) FROM decisions) AS decisions, (SELECT count(*) FROM chunks) AS chunks,
  (SELECT count(*) FROM search_vectors) AS vectors`).get() as { decisions: number; chunks: number; vectors: number };
const embedder = recordedEmbedder(corpus);
console.log(`search: ${requests} queries per row; ${counts.decisions} decisions, ${counts.chunks} passages, ${counts.vectors} decision vectors `
  + `(${embedder ? (embedder.kind === 'trained' ? `trained, ${embedder.dims} dims, ${embedder.vocabulary} words` : `external ${embedder.model}`) : 'none'}); node ${process.version}`);
const [stemsP50, expressionP50, countedP50, bareP50] = measures.slice(0, 4).map(([, samples]) => stats(samples).p50);
const TARGETS: Record<string, string> = {
  'keyword: HTTP GET /decisions/search': 'p50 <= 15, p95 <= 50, <= 1.5x raw',
  'hybrid: HTTP GET /decisions/search': 'p50 <= 50',
  'semantic: HTTP GET /decisions/search': 'p50 <= 40',
};
const table: (string | number)[][] = [['measure', 'p50 ms', 'p95 ms', 'p99 ms', 'x raw stems', 'x raw expression', 'x raw expr + count', 'x raw over HTTP', 'target']];
for (const [name, samples] of measures) {
  const s = stats(samples);
  table.push([name, s.p50, s.p95, s.p99, ...[stemsP50, expressionP50, countedP50, bareP50].map((base) => (s.p50 / base).toFixed(2)), TARGETS[name] ?? '']);
}
printTable(table);
const helped = rankHelperServed(corpus);
console.log(helped ? `rank helper: ${helped.ranked} upper halves ranked by the helper, ${helped.refused} refused` : 'rank helper: none (one core, or the executable)');
close([bare]);
