/**
 * Where a metered GET /api/v1/decisions/search spends its time outside the search itself (issue [ranking]: the edge),
 * per stage, from the client's send to its read of the whole answer: new keyword queries (the answer cache and the
 * kept page texts emptied before each) over one kept-alive connection. Never part of `npm test`.
 *
 *   node --min-semi-space-size=16 --max-semi-space-size=16 bench/edge-stages.ts --db .tmp/bench-100k.db [--n 200] [--rounds 3] [--before DIR] [--kept] [--evict MS]
 *
 * The stages are marked from outside the code measured, so that an older checkout is measured the same way: the
 * server's 'request' event, the state store's callerAndRoom and commitCall, the operation's handler, JSON.stringify
 * of the answer's envelope (an object with `credits` and `api_version`), ServerResponse's writeHead and end, and
 * 'finish'. Per request also the minor page faults from 'request' to 'finish', V8's GC time inside that span, inside
 * the handler and after 'finish' (V8 runs its scavenges as tasks between requests: with the client in this process
 * they land before it reads the answer), and how much the V8 heap grew (no GC in between: what was allocated). --before DIR: an older checkout (`git archive dea9e2f | tar -x -C DIR`, node_modules linked)
 * serves the same corpus on a second server in this process, queried in turn with this tree's (which one first
 * alternates by query), so the two columns share the machine's drift. The first round is untimed (warm-up). --kept:
 * the answer cache is left as it is, so the timed rounds ask for kept answers (the first round's; --n at most 256).
 * --evict MS: the client thrashes the CPU's caches for MS ms before each request (with --kept: a kept answer's edge
 * after a search's worth of memory traffic).
 *
 * Between callerAndRoom and the handler the rate limits, the arguments' normalization and the price are marked (what
 * lies between them: the arguments read and validated, the result key); the result's own JSON.stringify (a new answer's,
 * whose text is kept for its later asks) and the body's UTF-8 encoding (Buffer#write) are stages of their own.
 */
import { ServerResponse } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { httpGet, printTable, stats } from './lib.ts';
import { benchQueries } from './search-queries.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, n: { type: 'string', default: '200' }, rounds: { type: 'string', default: '3' }, before: { type: 'string' },
  kept: { type: 'boolean', default: false }, evict: { type: 'string', default: '0' },
} });
if (!values.db) {
  console.error('usage: node bench/edge-stages.ts --db CORPUS [--n 200] [--rounds 3] [--before DIR] [--kept] [--evict MS]');
  process.exit(2);
}

const marks: Record<string, number> = {};

/**
 * --evict MS: before each request the client reads and writes 4 MB for MS ms, as a search does between two requests
 * (it touches megabytes), so that the edge's code and data are out of the CPU's caches when the request arrives.
 */
const evictMs = Number(values.evict);
const junk = new Float64Array(evictMs ? 4 * 131072 : 0);
function evict(): void {
  const until = performance.now() + evictMs;
  while (performance.now() < until) for (let at = 0; at < junk.length; at += 8) junk[at]++;
}
const mark = (name: string) => { marks[name] = performance.now(); };

/** The handler's result of the request being served: its own JSON.stringify is a stage (a kept result's text). */
let served: unknown;
// The answer's serialization: the envelope is the one object with both fields; the result is the handler's.
const stringify = JSON.stringify;
JSON.stringify = function marked(value: unknown, ...rest: unknown[]) {
  const stage = value === served ? 'result' : value && typeof value === 'object' && 'credits' in value && 'api_version' in value ? 'stringify' : null;
  if (!stage) return stringify(value, ...(rest as []));
  mark(`${stage}<`);
  const text = stringify(value, ...(rest as []));
  mark(`${stage}>`);
  return text;
} as typeof JSON.stringify;
// The body's UTF-8 encoding (Buffer#write; the answer's text may be written in two parts): its first to its last.
const { write } = Buffer.prototype;
Buffer.prototype.write = function marked(this: Buffer, ...args: unknown[]) {
  const body = marks['handler>'] && !marks['writeHead<'];
  if (body && !marks['encode<']) mark('encode<');
  const written = (write as (...a: unknown[]) => number).apply(this, args);
  if (body) mark('encode>');
  return written;
} as typeof write;
const { writeHead, end } = ServerResponse.prototype;
ServerResponse.prototype.writeHead = function marked(this: ServerResponse, ...args: unknown[]) {
  mark('writeHead<');
  const result = (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  mark('writeHead>');
  return result;
} as typeof writeHead;
ServerResponse.prototype.end = function marked(this: ServerResponse, ...args: unknown[]) {
  const result = (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  mark('end>');
  // Bytes the socket did not take at once (left waiting in Node): the reused buffer is then given up.
  marks.waited = this.writableLength;
  return result;
} as typeof end;

/** GC pauses (start, duration in ms), for the time inside a span. */
const pauses: [number, number][] = [];
new PerformanceObserver((list) => { for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.duration]); }).observe({ entryTypes: ['gc'] });
const gcWithin = (from: number, to: number) => pauses.filter(([at]) => at >= from && at < to).reduce((sum, [, ms]) => sum + ms, 0);

/** One tree's server with its stages marked, and its way to ask a new keyword query. */
async function tree(dir: string) {
  const load = (path: string) => import(pathToFileURL(resolve(dir, path)).href);
  const [lib, answers, texts, registry] = await Promise.all([load('bench/lib.ts'), load('src/search/answer-cache.ts'),
    load('src/search/page-texts.ts'), load('src/operations/index.ts')]);
  const service = await lib.searchService(values.db!);
  const store = service.services.store;
  for (const name of ['callerAndRoom', 'commitCall']) {
    const original = store[name].bind(store);
    store[name] = async (...args: unknown[]) => { mark(`${name}<`); const result = await original(...args); mark(`${name}>`); return result; };
  }
  // The steps between: the rate limits taken, the arguments normalized (after they were read and parsed), the price.
  const marked = <T extends object>(owner: T, key: keyof T & string, name: string) => {
    const original = (owner[key] as (...a: unknown[]) => unknown).bind(owner);
    (owner as Record<string, unknown>)[key] = (...args: unknown[]) => { mark(`${name}<`); const result = original(...args); mark(`${name}>`); return result; };
  };
  marked(service.services.rates, 'take', 'take');
  const operation = registry.OPERATIONS.find((candidate: { name: string }) => candidate.name === 'search_decisions');
  marked(operation, 'normalize', 'normalize');
  marked(operation, 'price', 'price');
  const handler = operation.handler;
  operation.handler = async (...args: unknown[]) => {
    // The heap is read inside the marks' span, so that reading it is the handler's (its 3+ ms), not a stage's.
    mark('handler<');
    const heap = getHeapStatistics().used_heap_size;
    const result = await handler(...args);
    marks.handlerHeap = (getHeapStatistics().used_heap_size - heap) / 1024;
    served = result;
    mark('handler>');
    return result;
  };
  let faults = 0;
  service.server.prependListener('request', (_request: unknown, response: ServerResponse) => {
    faults = process.resourceUsage().minorPageFault;
    const heap = getHeapStatistics().used_heap_size;
    mark('request');
    response.once('finish', () => {
      mark('finish');
      marks.faults = process.resourceUsage().minorPageFault - faults;
      marks.heap = (getHeapStatistics().used_heap_size - heap) / 1024;
    });
  });
  return {
    service,
    ask: async (query: string) => {
      if (!values.kept) {
        answers.clearAnswers(service.corpus);
        texts.dropPageTexts(service.corpus);
      }
      if (evictMs) evict();
      for (const name of Object.keys(marks)) delete marks[name];
      const started = performance.now();
      const answer = await httpGet(`${service.url}/api/v1/decisions/search?${new URLSearchParams({ query, mode: 'keyword' })}`,
        { authorization: service.authorization() });
      const ended = performance.now();
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
      return { ...marks, started, ended };
    },
  };
}

const STAGES: [string, (m: Record<string, number>) => number][] = [
  ['send -> request event', (m) => m.request - m.started],
  ['request -> callerAndRoom', (m) => m['callerAndRoom<'] - m.request],
  ['callerAndRoom', (m) => m['callerAndRoom>'] - m['callerAndRoom<']],
  ['callerAndRoom -> rate limits', (m) => m['take<'] - m['callerAndRoom>']],
  ['rate limits', (m) => m['take>'] - m['take<']],
  ['arguments read, parsed', (m) => m['normalize<'] - m['take>']],
  ['normalize', (m) => m['normalize>'] - m['normalize<']],
  ['normalize -> price', (m) => m['price<'] - m['normalize>']],
  ['price -> handler (result key, room)', (m) => m['handler<'] - m['price>']],
  ['callerAndRoom -> handler', (m) => m['handler<'] - m['callerAndRoom>']],
  ['handler', (m) => m['handler>'] - m['handler<']],
  ['handler -> commitCall', (m) => m['commitCall<'] - m['handler>']],
  ['commitCall', (m) => m['commitCall>'] - m['commitCall<']],
  ['commitCall -> stringify', (m) => m['stringify<'] - m['commitCall>']],
  ['stringify (envelope)', (m) => m['stringify>'] - m['stringify<']],
  ['the result\'s JSON.stringify (a kept one\'s text)', (m) => m['result>'] - m['result<']],
  ['UTF-8 encoding', (m) => m['encode>'] - m['encode<']],
  ['stringify -> writeHead (bytes, head)', (m) => m['writeHead<'] - m['stringify>']],
  ['writeHead, end', (m) => m['end>'] - m['writeHead<']],
  ['of it end (the socket\'s write)', (m) => m['end>'] - m['writeHead>']],
  ['end -> finish', (m) => m.finish - m['end>']],
  ['finish -> client has the body', (m) => m.ended - m.finish],
  ['server: request -> finish', (m) => m.finish - m.request],
  ['server outside the handler', (m) => m.finish - m.request - (m['handler>'] - m['handler<'])],
  ['whole', (m) => m.ended - m.started],
  ['GC ms in request -> finish', (m) => gcWithin(m.request, m.finish)],
  ['GC ms in the handler', (m) => gcWithin(m['handler<'], m['handler>'])],
  ['GC ms in finish -> client has the body', (m) => gcWithin(m.finish, m.ended)],
  ['minor page faults request -> finish', (m) => m.faults],
  ['bytes left waiting in Node after end', (m) => m.waited],
  ['V8 heap KB request -> finish (grown)', (m) => m.heap],
  ['V8 heap KB in the handler (grown)', (m) => m.handlerHeap],
];

const mine = await tree('.');
const older = values.before ? await tree(values.before) : null;
const { legal } = benchQueries(Number(values.n));
const queries = [...new Set(legal)];
// Raw marks first: GC entries reach the observer later than the request that paid for them.
const taken: Record<string, number>[][] = [[], []];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [index, query] of queries.entries()) {
    const order = older && index % 2 === 1 ? [1, 0] : [0, 1];
    for (const which of order) {
      const side = [mine, older][which];
      if (!side) continue;
      const m = await side.ask(query);
      if (round > 0) taken[which].push({ ...m, round });
    }
  }
}
await new Promise((done) => setTimeout(done, 100));
// A stage a request did not pass through (a kept result's text already made) is left out of its figures, and a stage
// none passed through prints NaN.
const figures = (list: number[]) => {
  const passed = list.filter(Number.isFinite);
  return passed.length ? stats(passed) : { p50: NaN, mean: NaN };
};
const samples = taken.map((list) => STAGES.map(([, of]) => list.map(of)));
const { n } = mine.service.corpus.prepare('SELECT count(*) AS n FROM decisions').get() as { n: number };
console.log(`edge stages: ${queries.length} keyword queries${values.kept ? ' (kept answers)' : ''}${evictMs ? `, caches thrashed ${evictMs} ms before each` : ''} x ${Number(values.rounds) - 1} timed rounds, ${n} decisions; node ${process.version}`);
const header = ['stage', 'p50', 'mean'];
if (older) header.push(`before p50 (${values.before})`, 'before mean', 'p50 ratio', 'mean ratio');
const table: (string | number)[][] = [header];
for (const [stage, [name]] of STAGES.entries()) {
  const now = figures(samples[0][stage]);
  const row: (string | number)[] = [name, now.p50, now.mean];
  if (older) {
    const then = figures(samples[1][stage]);
    row.push(then.p50, then.mean, then.p50 ? (now.p50 / then.p50).toFixed(2) : '-', then.mean ? (now.mean / then.mean).toFixed(2) : '-');
  }
  table.push(row);
}
printTable(table);
// Per timed round, this tree's p50 of each server-side stage: V8 optimises the edge's code only after many requests.
const rounds = [...new Set(taken[0].map((m) => m.round))];
console.log(`\nthis tree, p50 per timed round (${queries.length} requests each)`);
const perRound: (string | number)[][] = [['stage', ...rounds.map((r) => `round ${r}`)]];
for (const [name, of] of STAGES.slice(1, -8)) perRound.push([name, ...rounds.map((r) => figures(taken[0].filter((m) => m.round === r).map(of)).p50)]);
printTable(perRound);
mine.service.close();
older?.service.close();
process.exit(0);
