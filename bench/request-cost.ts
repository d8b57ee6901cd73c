/**
 * Where a cheap request's fixed cost goes (issue [ranking] item 4, [scale] GET p50): in one run and interleaved,
 * a bare node:http server answering the same bytes, our server for GET /decisions/{id} and for a keyword search
 * answered from the answer cache, and each step of the request path in-process (authentication, rate limit, the
 * balance and cap reads, the metered write transaction, serialization, h3 routing and validation, access log and
 * metrics).
 *
 *   node bench/request-cost.ts --db .tmp/bench-100k-copy.db [--rounds 1500] [--before DIR]
 *
 * --before DIR: a checkout of an older commit (`git archive 0093474 | tar -x -C DIR`) served beside this tree in
 * the same process, interleaved request by request, so that before and after share the machine's moment. The corpus
 * is opened read-only by both; each has a state of its own in a temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { httpGet, printTable, stats } from './lib.ts';
import { benchQueries } from './search-queries.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, rounds: { type: 'string', default: '1500' }, before: { type: 'string' },
} });
if (!values.db) {
  console.error('usage: node bench/request-cost.ts --db CORPUS [--rounds N] [--before DIR]');
  process.exit(2);
}
const rounds = Number(values.rounds);
const WARMUP = 100;

/** One tree's server over the corpus: its modules, services, HTTP address and a source of fresh callers. */
async function treeServer(root: string, label: string) {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href);
  const [server, organizations, tokens, execute, operations, observability, accessLog, metrics, h3] = await Promise.all([
    load('src/server.ts'), load('src/accounts/organizations.ts'), load('src/accounts/tokens.ts'),
    load('src/operations/execute.ts'), load('src/operations/index.ts'), load('src/observability/observability.ts'),
    load('src/observability/access-log.ts'), load('src/observability/metrics.ts'), load('src/http/app.ts'),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'juralite-cost-'));
  const services = server.openServices({ corpusPath: values.db, statePath: join(dir, 'state.db') });
  const plans = services.config.plans.enterprise;
  plans.dailyRows = plans.dailyDocuments = plans.monthlyCredits = Number.MAX_SAFE_INTEGER;
  // As `juralite serve` runs: a JSON access log line per request (its default destination, on /dev/null), metrics on.
  const observed = {
    ...observability.quietObservability(),
    log: accessLog.createAccessLog({ level: 'info', format: 'json', destination: pino.destination(accessLog.bufferedLogDestination?.('/dev/null')
      // Before Session 17: a write per line.
      ?? { dest: '/dev/null', sync: false, maxLength: 16 * 1024 * 1024 }) }),
    metrics: metrics.createMetrics(services),
  };
  const { server: http, url } = await server.listen(services, '127.0.0.1', 0, undefined, observed);
  http.keepAliveTimeout = 600_000;
  const app = h3.createApp(services, undefined, observed);
  const operation = (name: string) => operations.OPERATIONS.find((item: { name: string }) => item.name === name);
  // Every call is a new result for its organization (so it is charged: the ledger write happens), and no token
  // reaches the rate limit: a new organization every 40 calls, a new token every 40 calls.
  let calls = 0;
  let bearer = '';
  let organizationId = '';
  const caller = () => {
    if (calls++ % 40 === 0) {
      organizationId = organizations.createOrganization(services.state, { name: `bench ${calls}`, plan: 'enterprise' }, new Date()).organization.id;
      bearer = `Bearer ${tokens.createToken(services.state, { organizationId, abilities: ['search', 'read'] }, new Date()).token}`;
    }
    return bearer;
  };
  return {
    label, services, url, http, app, caller, observed, organization: () => organizationId, execute: execute.execute, operation,
    close: () => { http.closeAllConnections(); http.close(); server.closeServices(services); rmSync(dir, { recursive: true, force: true }); },
  };
}

const after = await treeServer(resolve('.'), 'this tree');
const before = values.before ? await treeServer(resolve(values.before), 'before') : null;
const corpus = after.services.corpus!;
const ids = (corpus.prepare('SELECT id FROM decisions ORDER BY random() LIMIT ?').all(rounds + WARMUP) as { id: string }[]).map((row) => row.id);
const queries = [...new Set(benchQueries(40).legal)];
const searchUrl = (base: string, query: string) => `${base}/api/v1/decisions/search?mode=keyword&query=${encodeURIComponent(query)}`;

// Every search query answered once (untimed), so that the timed searches are served from the answer cache.
for (const server of [after, before].filter((item) => item !== null)) {
  for (const query of queries) {
    const response = await httpGet(searchUrl(server.url, query), { authorization: server.caller() });
    if (response.status !== 200) throw new Error(`${server.label}: HTTP ${response.status}: ${response.body}`);
  }
}

// A bare node:http server answering with the bytes of a real answer and the same headers (no routing, no state).
const sample = await httpGet(`${after.url}/api/v1/decisions/${ids[0]}`, { authorization: after.caller() });
const bareBody = Buffer.from(sample.body);
const bare: Server = createServer((_request, response) => {
  response.writeHead(200, 'OK', { 'content-type': 'application/json; charset=utf-8', 'x-service-api-release': 'bench', 'content-length': bareBody.length });
  response.end(bareBody);
});
await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
bare.keepAliveTimeout = 600_000;
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/v1/decisions/x`;

// The edge without the operation: h3 routing a request to a handler answering a kept answer body, bare and then with
// what every API request gets (the access middleware: request id and log line; the metrics; jsonResponse).
const { H3, toNodeHandler } = await import('h3');
const { FastResponse } = await import('srvx');
const { jsonResponse } = await import('../src/http/responses.ts');
const { accessMiddleware } = await import('../src/http/observed.ts');
const { observeCall } = await import('../src/observability/observability.ts');
const sampleBody = JSON.parse(sample.body);
const h3Bare = new H3();
h3Bare.get('/api/v1/decisions/:id', () => new FastResponse(bareBody, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } }));
const h3Edge = new H3();
h3Edge.use(accessMiddleware(after.observed));
h3Edge.get('/api/v1/decisions/:id', (event) => {
  observeCall(after.observed, event.context.request as never, { operation: 'get_decision', transport: 'rest', status: 200, cost: 1, seconds: 0.001 });
  return jsonResponse(after.services.config, 200, sampleBody);
});
const served = async (handler: ReturnType<typeof toNodeHandler>) => {
  const server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  server.keepAliveTimeout = 600_000;
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/decisions/x` };
};
const h3BareServer = await served(toNodeHandler(h3Bare));
const h3EdgeServer = await served(toNodeHandler(h3Edge));

const ok = async (promise: Promise<{ status: number; body: string }>) => {
  const response = await promise;
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body}`);
};

type Server_ = Awaited<ReturnType<typeof treeServer>>;
/** The measures of one tree: HTTP requests, and the request path's steps in-process. */
function measuresOf(server: Server_): [string, (round: number) => unknown][] {
  const { services, app } = server;
  const store = services.store;
  const getDecision = server.operation('get_decision');
  const search = server.operation('search_decisions');
  const suffix = before ? ` (${server.label})` : '';
  let commits = 0;
  return [
    [`HTTP GET /decisions/{id}${suffix}`, (round) => ok(httpGet(`${server.url}/api/v1/decisions/${ids[round % ids.length]}`, { authorization: server.caller() }))],
    [`HTTP GET /decisions/search, kept answer${suffix}`, (round) => ok(httpGet(searchUrl(server.url, queries[round % queries.length]), { authorization: server.caller() }))],
    [`h3 app.fetch GET /decisions/{id}, no socket${suffix}`, async (round) => {
      const response = await app.fetch(new Request(`http://127.0.0.1/api/v1/decisions/${ids[round % ids.length]}`, { headers: { authorization: server.caller() } }));
      if (response.status !== 200) throw new Error(`app.fetch: ${response.status} ${await response.text()}`);
      await response.text();
    }],
    [`execute() get_decision, no HTTP${suffix}`, (round) => server.execute(getDecision, { authorization: server.caller(), args: { id: ids[round % ids.length] } }, services)],
    [`execute() search, kept answer, no HTTP${suffix}`, (round) => server.execute(search, { authorization: server.caller(), args: { query: queries[round % queries.length], mode: 'keyword' } }, services)],
    [`  step: authenticate${suffix}`, () => store.authenticate(server.caller(), services.clock())],
    [`  step: balance + already paid + daily cap reads${suffix}`, async (round) => {
      const now = services.clock();
      const caller = await store.authenticate(server.caller(), now);
      return [await store.balanceOf(caller.organization, services.config.plans, now),
        await store.alreadyPaid(caller.organization.id, 'get_decision', `x${round}`, now),
        await store.volumeUsed(caller.organization.id, 'documents', now)];
    }],
    [`  step: metered write transaction (commitCall)${suffix}`, async () => {
      const now = services.clock();
      const caller = await store.authenticate(server.caller(), now);
      return store.commitCall({ organization: caller.organization, terms: services.config.plans,
        charge: { operation: 'bench', resultKey: `k${commits++}`, cost: 1 }, volume: { unit: 'documents', amount: 1 }, writes: [] }, now);
    }],
  ];
}

const measures = [...measuresOf(after), ...(before ? measuresOf(before) : [])];
// The steps' own authenticate is part of their sample: it is subtracted in the table (the "step alone" column).
measures.unshift(['bare node:http, same bytes', () => ok(httpGet(bareUrl, {}))],
  ['h3 route, same bytes (no middleware)', () => ok(httpGet(h3BareServer.url, {}))],
  ['h3 + access log + metrics + jsonResponse, no operation', () => ok(httpGet(h3EdgeServer.url, {}))]);

const samples = measures.map((): number[] => []);
// Each round runs every measure once, in an order shuffled per round (fixed seed): a measure that always ran right
// after another would pay for what that one left behind (the log write, a collection, the other server's socket).
let seed = 17;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const order = measures.map((_, index) => index);
for (let round = 0; round < rounds + WARMUP; round++) {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  for (const index of order) {
    const run = measures[index][1];
    const started = performance.now();
    await run(round);
    if (round >= WARMUP) samples[index].push(performance.now() - started);
  }
}

const bareP50 = stats(samples[0]).p50;
const rows: (string | number)[][] = [['measure', 'p50 ms', 'p95 ms', 'p99 ms', 'x bare p50']];
for (const [index, [name]] of measures.entries()) {
  const s = stats(samples[index]);
  rows.push([name, s.p50, s.p95, s.p99, (s.p50 / bareP50).toFixed(2)]);
}
const total = (corpus.prepare('SELECT count(*) AS n FROM decisions').get() as { n: number }).n;
console.log(`request cost: ${rounds} rounds interleaved (after ${WARMUP} untimed), ${total} decisions, ${queries.length} kept search answers, node ${process.version}`);
printTable(rows);
console.log('(the step rows after authenticate include one authenticate each)');
// The page of a keyword search (chunks, passages, snippets, Randnummern, frequently_cited_by_results), in-process, for
// new queries ranked once beforehand: the work of a result page beside its ranking, this tree against --before.
const pageQueries = [...new Set(benchQueries(120).legal)];
const pageOf = async (root: string) => {
  const search = await import(pathToFileURL(join(root, 'src/search/decision-search.ts')).href);
  const cited = await import(pathToFileURL(join(root, 'src/search/cited-by-results.ts')).href);
  const { openCorpus } = await import(pathToFileURL(join(root, 'src/corpus/open.ts')).href);
  const db = openCorpus(values.db, { readonly: true });
  const rankings = pageQueries.map((query) => search.rankDecisions(db, { query, mode: 'keyword', bridge: true, depth: 20 }, true));
  // Session 17 keeps decompressed texts across pages (src/search/page-texts.ts): `cold` forgets them before a page.
  const texts = await import(pathToFileURL(join(root, 'src/search/page-texts.ts')).href).catch(() => null);
  return { db, dropTexts: () => texts?.dropPageTexts(db), run: (index: number) => db.transaction(() => {
    const items = search.pageItems(db, rankings[index], 0, 20, false);
    return [items, cited.frequentlyCitedByResults(db, items.map((item: { id: string }) => item.id))];
  })() };
};
const current = await pageOf(resolve('.'));
const pages = [
  { label: 'this tree, texts not kept from earlier pages', ...current, cold: true },
  { label: 'this tree, texts kept from earlier pages', ...current, cold: false },
  ...(values.before ? [{ label: 'before', ...await pageOf(resolve(values.before)), cold: false }] : []),
];
const pageSamples = pages.map((): number[] => []);
for (let pass = 0; pass < 3; pass++) {
  for (let index = 0; index < pageQueries.length; index++) {
    for (const [tree, page] of (index % 2 === 0 ? pages.entries() : [...pages.entries()].reverse())) {
      if (page.cold) page.dropTexts();
      const started = performance.now();
      page.run(index);
      // The first pass reads the pages into the cache and warms the code: untimed.
      if (pass > 0) pageSamples[tree].push(performance.now() - started);
    }
  }
}
const pageRows: (string | number)[][] = [['page of a keyword search, in-process (20 results)', 'p50 ms', 'p95 ms', `x ${pages.at(-1)!.label} p50`]];
const pageBase = stats(pageSamples[pages.length - 1]).p50;
for (const [tree, { label }] of pages.entries()) {
  const s = stats(pageSamples[tree]);
  pageRows.push([label, s.p50, s.p95, (s.p50 / pageBase).toFixed(2)]);
}
console.log(`\n${pageQueries.length} keyword queries, each page built twice per measure after an untimed pass, interleaved`);
printTable(pageRows);
for (const page of new Set(pages.map((item) => item.db))) page.close();

// A new keyword query (nothing kept: the answer cache and the page texts emptied first) three ways, interleaved, on
// this tree's serving connection: the search alone, the metered operation (execute()), and over HTTP. The differences
// are the request's fixed cost around a real search.
const { clearAnswers } = await import('../src/search/answer-cache.ts');
const { searchDecisions } = await import('../src/search/decision-search.ts');
const { dropPageTexts } = await import('../src/search/page-texts.ts');
const servedCorpus = after.services.corpus!;
const forget = () => {
  clearAnswers(servedCorpus);
  dropPageTexts(servedCorpus);
};
const newQueries = benchQueries(150).legal;
const newQuery: [string, (query: string) => unknown][] = [
  ['search alone (searchDecisions), in-process', (query) => { forget(); return searchDecisions(servedCorpus, { query, mode: 'keyword', limit: 20, page: 1, bridge: true }); }],
  ['execute() search, no HTTP', (query) => { forget(); return after.execute(after.operation('search_decisions'), { authorization: after.caller(), args: { query, mode: 'keyword' } }, after.services); }],
  ['HTTP GET /decisions/search', (query) => { forget(); return ok(httpGet(searchUrl(after.url, query), { authorization: after.caller() })); }],
];
const newSamples = newQuery.map((): number[] => []);
for (const [index, query] of newQueries.entries()) {
  for (const [measure, [, run]] of newQuery.entries()) {
    const started = performance.now();
    await run(query);
    if (index >= 20) newSamples[measure].push(performance.now() - started);
  }
}
const newRows: (string | number)[][] = [['new keyword query, this tree (nothing kept)', 'p50 ms', 'p95 ms', 'x search alone p50']];
const newBase = stats(newSamples[0]).p50;
for (const [measure, [name]] of newQuery.entries()) {
  const s = stats(newSamples[measure]);
  newRows.push([name, s.p50, s.p95, (s.p50 / newBase).toFixed(2)]);
}
console.log(`\n${newQueries.length - 20} keyword queries (after 20 untimed), interleaved query by query`);
printTable(newRows);

for (const server of [bare, h3BareServer.server, h3EdgeServer.server]) {
  server.closeAllConnections();
  server.close();
}
after.close();
before?.close();
