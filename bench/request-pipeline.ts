/**
 * What a request costs beyond its operation (the HTTP pipeline), for new searches and for GET /decisions/{id}
 * (issues [ranking] item 4 and [scale]): in one run, query by query and rotated (each measure runs first for its share
 * of the queries), the search alone in-process, the metered call (execute(): token, rate limit, balance and cap
 * reads, the charging transaction), the same through h3 without a socket (app.fetch), and over HTTP; and the HTTP
 * request cut into its stages, timed from inside the server: the request's arrival, the reads before the work, the
 * operation's handler, the charging transaction, the answer's JSON and write, the client's read of it.
 *
 *   node bench/request-pipeline.ts --db .tmp/bench-100k-s4.db [--queries 120] [--gets 800] [--modes keyword,hybrid,get]
 *     [--before DIR]
 *
 * New queries: the answer cache and the kept page texts are emptied before every measure. Every call is a new result
 * for its organization, so it is charged (ledger row, paid result, daily counter). The server is `juralite serve`'s
 * (its services, the JSON access log on /dev/null, metrics on), in this process, its client on one kept-alive
 * connection. --before DIR (`git archive COMMIT | tar -x -C DIR`, node_modules linked): that tree's server beside
 * this one over the same corpus file (state of its own), timed over HTTP in the same rotation, and every answer of
 * both compared byte for byte (each tree's organization charged alike, so credits_remaining agree too).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PerformanceObserver } from 'node:perf_hooks';
import pino from 'pino';
import { httpGet, printTable, stats } from './lib.ts';
import { benchQueries } from './search-queries.ts';
import { searchDecisions } from '../src/search/decision-search.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, queries: { type: 'string', default: '120' }, gets: { type: 'string', default: '800' },
  modes: { type: 'string', default: 'keyword,hybrid,get,commit' }, before: { type: 'string' }, commits: { type: 'string', default: '4000' },
} });
if (!values.db) {
  console.error('usage: node bench/request-pipeline.ts --db CORPUS [--queries N] [--gets N] [--modes keyword,hybrid,get] [--before DIR]');
  process.exit(2);
}
const WARMUP = 15;

/** The stages of the request being served, as the server's hooks see them (performance.now()). */
interface Marks { arrived?: number; handler?: number; handled?: number; finished?: number; reads: number; commit: number }

/** A tree's server over the corpus, as `juralite serve` runs it; `marks` filled for this tree's requests. */
async function treeServer(root: string) {
  const load = (path: string) => import(pathToFileURL(join(resolve(root), path)).href);
  const [server, organizations, tokens, execute, operations, observability, accessLog, metrics, h3, answers, texts] = await Promise.all([
    load('src/server.ts'), load('src/accounts/organizations.ts'), load('src/accounts/tokens.ts'), load('src/operations/execute.ts'),
    load('src/operations/index.ts'), load('src/observability/observability.ts'), load('src/observability/access-log.ts'),
    load('src/observability/metrics.ts'), load('src/http/app.ts'), load('src/search/answer-cache.ts'), load('src/search/page-texts.ts'),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'juralite-pipeline-'));
  const services = server.openServices({ corpusPath: values.db, statePath: join(dir, 'state.db') });
  Object.assign(services.config.plans.enterprise, {
    monthlyCredits: Number.MAX_SAFE_INTEGER, dailyRows: Number.MAX_SAFE_INTEGER, dailyDocuments: Number.MAX_SAFE_INTEGER,
  });
  const observed = { ...observability.quietObservability(),
    log: accessLog.createAccessLog({ level: 'info', format: 'json', destination: pino.destination(accessLog.bufferedLogDestination('/dev/null')) }),
    metrics: metrics.createMetrics(services), metricsAt: 'off' };
  const marks: Marks = { reads: 0, commit: 0 };
  // The handlers and the state timed from inside: the operations wrapped, the store's methods wrapped.
  const timed = operations.OPERATIONS.map((operation: { handler: (...args: unknown[]) => Promise<unknown> }) => ({ ...operation,
    handler: async (...args: unknown[]) => {
      marks.handler = performance.now();
      try {
        return await operation.handler(...args);
      } finally {
        marks.handled = performance.now();
      }
    } }));
  const store = services.store;
  for (const [name, into] of [['callerAndRoom', 'reads'], ['authenticate', 'reads'], ['balanceOf', 'reads'], ['alreadyPaid', 'reads'],
    ['volumeUsed', 'reads'], ['commitCall', 'commit']] as const) {
    // callerAndRoom (session 20) reads the token, balance and volume at once; an older tree has no such method.
    if (!store[name]) continue;
    const method = store[name].bind(store);
    store[name] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await method(...args);
      } finally {
        marks[into] += performance.now() - started;
      }
    };
  }
  const { server: http, url } = await server.listen(services, '127.0.0.1', 0, timed, observed);
  http.keepAliveTimeout = 600_000;
  http.prependListener('request', (_request: unknown, response: { once: (event: string, done: () => void) => void }) => {
    marks.arrived = performance.now();
    response.once('finish', () => { marks.finished = performance.now(); });
  });
  const app = h3.createApp(services, undefined, observed);
  /** A caller of a new organization per purpose (so that each purpose's credits run alike in both trees). */
  const callerFor = () => {
    const { organization } = organizations.createOrganization(services.state, { name: 'bench', plan: 'enterprise' }, new Date());
    let calls = 0;
    let bearer = '';
    return () => {
      if (calls++ % 50 === 0) bearer = `Bearer ${tokens.createToken(services.state, { organizationId: organization.id, abilities: ['search', 'read'] }, new Date()).token}`;
      return bearer;
    };
  };
  return {
    services, url, app, marks, callerFor, execute: execute.execute,
    // The tree's own caches (each tree's modules keep theirs): what it kept of earlier answers and pages is forgotten.
    forget: () => {
      answers.clearAnswers(services.corpus);
      texts.dropPageTexts(services.corpus);
    },
    search: operations.OPERATIONS.find((operation: { name: string }) => operation.name === 'search_decisions'),
    close: () => { http.closeAllConnections(); http.close(); server.closeServices(services); rmSync(dir, { recursive: true, force: true }); },
  };
}

const tree = await treeServer('.');
const before = values.before ? await treeServer(values.before) : null;
const corpus = tree.services.corpus!;
const forget = () => {
  tree.forget();
  before?.forget();
};
const answered = async (promise: Promise<{ status: number; body: string }>) => {
  const response = await promise;
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body}`);
  return response.body;
};

// Garbage collection pauses of this process (the server's and the client's, one heap): a stage is shown with the
// pauses that fell into it, since a search's garbage is collected wherever the next allocation happens to be.
const pauses: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
}).observe({ entryTypes: ['gc'] });
const pausedWithin = (from: number, to: number) => pauses.reduce((sum, pause) => sum + Math.max(0, Math.min(to, pause.end) - Math.max(from, pause.start)), 0);

/** One request over HTTP with its stages (both trees' servers are timed from inside alike), or its total alone. */
async function staged(server: Awaited<ReturnType<typeof treeServer>>, url: string, authorization: string, stages: Map<string, number[]> | null) {
  const { marks } = server;
  Object.assign(marks, { arrived: undefined, handler: undefined, handled: undefined, finished: undefined, reads: 0, commit: 0 });
  const started = performance.now();
  const body = await answered(httpGet(url, { authorization }));
  const ended = performance.now();
  if (stages) {
    // The GC observer's entries arrive a turn later.
    await new Promise((done) => setImmediate(done));
    const push = (name: string, ms: number, from?: number, to?: number) => {
      (stages.get(name) ?? stages.set(name, []).get(name)!).push(ms);
      if (from !== undefined) (stages.get(`${name}\u0000gc`) ?? stages.set(`${name}\u0000gc`, []).get(`${name}\u0000gc`)!).push(pausedWithin(from, to!));
    };
    push('client sends -> server has the request', marks.arrived! - started, started, marks.arrived!);
    push('request -> handler (h3, token, arguments, price, reads)', marks.handler! - marks.arrived!, marks.arrived!, marks.handler!);
    push('  (state reads: token, balance, daily cap)', marks.reads);
    push('operation handler', marks.handled! - marks.handler!, marks.handler!, marks.handled!);
    push('handler -> answer handed to the socket', marks.finished! - marks.handled!, marks.handled!, marks.finished!);
    push('  (charging transaction, commitCall)', marks.commit);
    push('  (the rest: envelope, JSON, headers, log, write)', marks.finished! - marks.handled! - marks.commit);
    push('socket -> client has the whole answer', ended - marks.finished!, marks.finished!, ended);
    push('whole, at the client', ended - started, started, ended);
  }
  return { ms: ended - started, body };
}

const printStages = (title: string, stages: Map<string, number[]>) => {
  const rows: (string | number)[][] = [[title, 'p50 ms', 'p95 ms', 'mean ms', 'GC in it, mean ms', 'GC in it, share of requests']];
  for (const [name, samples] of stages) {
    if (name.endsWith('\u0000gc')) continue;
    const s = stats(samples);
    const gc = stages.get(`${name}\u0000gc`);
    rows.push([name, s.p50, s.p95, s.mean.toFixed(3), gc ? stats(gc).mean.toFixed(3) : '',
      gc ? `${Math.round(100 * gc.filter((ms) => ms > 0).length / gc.length)}%` : '']);
  }
  printTable(rows);
};

const count = Number(values.queries);
const modes = values.modes.split(',');
const total = corpus.prepare('SELECT count(*) FROM decisions').pluck().get() as number;
console.log(`request pipeline: ${total} decisions, node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`
  + `${values.before ? `, this tree beside ${values.before}` : ''}`);

for (const mode of modes.filter((item) => item === 'keyword' || item === 'hybrid')) {
  const list = mode === 'keyword' ? benchQueries(count).legal : benchQueries(count).mixed;
  const callers = { execute: tree.callerFor(), fetch: tree.callerFor(), http: tree.callerFor(), before: before?.callerFor() };
  const stages = new Map<string, number[]>();
  const stagesBefore = new Map<string, number[]>();
  const names = ['searchDecisions, in-process', 'execute(): the metered call', 'app.fetch: h3, no socket', 'HTTP GET /decisions/search',
    ...(before ? ['HTTP GET /decisions/search (before)'] : [])];
  const samples = names.map((): number[] => []);
  let differ = 0;
  const path = (query: string) => `/api/v1/decisions/search?mode=${mode}&query=${encodeURIComponent(query)}`;
  for (const [index, query] of list.entries()) {
    const bodies: string[] = [];
    const runs: (() => Promise<void>)[] = [
      async () => { await searchDecisions(corpus, { query, mode: mode as 'keyword', limit: 20, page: 1, bridge: true }); },
      async () => { await tree.execute(tree.search, { authorization: callers.execute(), args: { query, mode } }, tree.services); },
      async () => {
        const response = await tree.app.fetch(new Request(`http://127.0.0.1${path(query)}`, { headers: { authorization: callers.fetch() } }));
        if (response.status !== 200) throw new Error(`app.fetch ${response.status}: ${await response.text()}`);
        await response.text();
      },
      async () => { bodies[0] = (await staged(tree, `${tree.url}${path(query)}`, callers.http(), index >= WARMUP ? stages : null)).body; },
      ...(before ? [async () => { bodies[1] = (await staged(before, `${before.url}${path(query)}`, callers.before!(), index >= WARMUP ? stagesBefore : null)).body; }] : []),
    ];
    for (let k = 0; k < runs.length; k++) {
      const which = (index + k) % runs.length;
      forget();
      const started = performance.now();
      await runs[which]();
      if (index >= WARMUP) samples[which].push(performance.now() - started);
    }
    if (before && bodies[0] !== bodies[1]) differ++;
  }
  const base = stats(samples[0]).p50;
  const rows: (string | number)[][] = [[`${mode}: ${list.length - WARMUP} new queries`, 'p50 ms', 'p95 ms', 'mean ms', 'x in-process p50', '- in-process p50']];
  for (const [which, name] of names.entries()) {
    const s = stats(samples[which]);
    rows.push([name, s.p50, s.p95, s.mean.toFixed(3), (s.p50 / base).toFixed(2), (s.p50 - base).toFixed(3)]);
  }
  console.log(`\n${mode}: ${list.length - WARMUP} new queries (after ${WARMUP} untimed), rotated query by query${before ? `, answers differing from before: ${differ} of ${list.length}` : ''}`);
  printTable(rows);
  console.log('');
  printStages(`${mode}: HTTP stages (this tree)`, stages);
  if (before) {
    console.log('');
    printStages(`${mode}: HTTP stages (before)`, stagesBefore);
  }
}

if (modes.includes('get')) {
  const gets = Number(values.gets);
  const ids = corpus.prepare('SELECT id FROM decisions ORDER BY random() LIMIT ?').pluck().all(gets + WARMUP) as string[];
  const callers = { http: tree.callerFor(), before: before?.callerFor() };
  const stages = new Map<string, number[]>();
  const stagesBefore = new Map<string, number[]>();
  const samples: number[][] = [[], []];
  let differ = 0;
  // Each decision read once by each server first (untimed), as bench/scale.ts does: the round trip, not the disk.
  for (const id of ids) {
    await answered(httpGet(`${tree.url}/api/v1/decisions/${id}`, { authorization: callers.http() }));
    if (before) await answered(httpGet(`${before.url}/api/v1/decisions/${id}`, { authorization: callers.before!() }));
  }
  for (const [index, id] of ids.entries()) {
    const bodies: string[] = [];
    for (const which of (before ? (index % 2 === 0 ? [0, 1] : [1, 0]) : [0])) {
      const started = performance.now();
      if (which === 0) bodies[0] = (await staged(tree, `${tree.url}/api/v1/decisions/${id}`, callers.http(), index >= WARMUP ? stages : null)).body;
      else bodies[1] = (await staged(before!, `${before!.url}/api/v1/decisions/${id}`, callers.before!(), index >= WARMUP ? stagesBefore : null)).body;
      if (index >= WARMUP) samples[which].push(performance.now() - started);
    }
    if (before && bodies[0] !== bodies[1]) differ++;
  }
  const rows: (string | number)[][] = [[`GET /decisions/{id}: ${gets} decisions read before`, 'p50 ms', 'p95 ms', 'mean ms', 'x before p50']];
  for (const [which, name] of ['this tree', 'before'].entries()) {
    if (!samples[which].length) continue;
    const s = stats(samples[which]);
    rows.push([name, s.p50, s.p95, s.mean.toFixed(3), before ? (s.p50 / stats(samples[1]).p50).toFixed(2) : '']);
  }
  console.log(`\nGET /decisions/{id}, ${before ? 'alternating with before, ' : ''}each decision read once before${before ? `, answers differing: ${differ} of ${ids.length}` : ''}`);
  printTable(rows);
  console.log('');
  printStages('GET: HTTP stages (this tree)', stages);
  if (before) {
    console.log('');
    printStages('GET: HTTP stages (before)', stagesBefore);
  }
}
// The charging transaction alone (this tree's and --before's SqliteStore, each on a new state file, the commits
// interleaved): what a charged call's commit costs, and how often one of them pays for a checkpoint.
if (modes.includes('commit') && before) {
  const commits = Number(values.commits);
  const stores = await Promise.all([resolve('.'), resolve(values.before!)].map(async (root) => {
    const load = (path: string) => import(pathToFileURL(join(root, path)).href);
    const [{ SqliteStore }, organizations] = await Promise.all([load('src/state/sqlite-store.ts'), load('src/accounts/organizations.ts')]);
    const dir = mkdtempSync(join(tmpdir(), 'juralite-commits-'));
    const store = new SqliteStore(join(dir, 'state.db'));
    // As a server runs it (this tree: the checkpoint thread; --before has no such switch).
    store.checkpointInThread?.();
    const { organization } = organizations.createOrganization(store.db, { name: 'bench', plan: 'enterprise' }, new Date());
    return { store, organization, dir };
  }));
  const terms = tree.services.config.plans;
  const samples: number[][] = [[], []];
  for (let call = 0; call < commits; call++) {
    for (const which of call % 2 === 0 ? [0, 1] : [1, 0]) {
      const { store, organization } = stores[which];
      const started = performance.now();
      await store.commitCall({ organization, terms, charge: { operation: 'search_decisions', resultKey: `key ${call}`, cost: 1 },
        volume: { unit: 'rows', amount: 20 }, writes: [] }, new Date());
      samples[which].push(performance.now() - started);
    }
  }
  const rows: (string | number)[][] = [[`charging transaction (commitCall), ${commits} charged calls each`, 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'mean ms', 'x before mean']];
  for (const [which, name] of ['this tree', 'before'].entries()) {
    const s = stats(samples[which]);
    rows.push([name, s.p50, s.p95, s.p99, Math.max(...samples[which]), s.mean.toFixed(3), (s.mean / stats(samples[1]).mean).toFixed(2)]);
  }
  console.log('');
  printTable(rows);
  for (const { store, dir } of stores) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`\nload at the end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
tree.close();
before?.close();
