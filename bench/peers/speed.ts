/**
 * Speed beside Xapian (issue [ranking], targets at 100k over HTTP: keyword p50 <= 5 ms, p95 <= 15 ms; hybrid p50 <=
 * 12 ms, p95 <= 30 ms): the same queries (bench/search-queries.ts) to Xapian with its defaults in its own process
 * (its in-process time, bench/peers/xapian-peer.py) and to GET /decisions/search, interleaved query by query, so the
 * ratios hold however this machine's speed drifts. Never part of `npm test`.
 *
 *   node --min-semi-space-size=16 --max-semi-space-size=16 bench/peers/speed.ts --db .tmp/bench-100k.db [--requests 200] [--xapian .tmp/xapian-100k] [--before DIR [--before-db FILE]]
 *
 * The servers run in this process: the two flags give them V8's young generation as bin/juralite gives `juralite
 * serve` (without them keyword's p95 is some 25% higher; bench/README "Session 21").
 *
 * The Xapian index is built once from the corpus (each decision's Aktenzeichen, ECLI, title, Leitsatz/Tenor and the
 * rest, as bench/peers/run.ts exports them) and kept at --xapian. Rows per mode: a new query (the answer cache
 * and the kept page texts emptied before it: the search itself) and the same query asked again at once (the kept
 * answer). --before DIR: an older checkout (`git archive 55469c4 | tar -x -C DIR`) serves the same corpus on a second
 * server in this process, its new queries timed beside this tree's (which of the two asks first alternates by query);
 * --before-db: the same decisions in the file as the older checkout wrote it (a file this tree upgraded in place holds
 * what the older code does not read, or reads otherwise). A further row asks the same new queries of the same corpus
 * served by a process of its own, as `juralite serve` runs (bench/peers/speed-server.ts). With --before, the older
 * checkout's kept answer is asked too, beside this tree's (which of the two asks first alternates by query).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chunkTexts } from '../../src/corpus/stored-text.ts';
import { clearAnswers } from '../../src/search/answer-cache.ts';
import { dropPageTexts } from '../../src/search/page-texts.ts';
import { httpGet, printTable, searchService, stats } from '../lib.ts';
import { benchQueries } from '../search-queries.ts';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./xapian-peer.py', import.meta.url));
const SERVER = fileURLToPath(new URL('./speed-server.ts', import.meta.url));
const LEAD = ['Leitsatz', 'Orientierungssatz', 'Tenor'];
const WARMUP = 50;

const { values } = parseArgs({ options: {
  db: { type: 'string' }, requests: { type: 'string', default: '200' }, xapian: { type: 'string', default: '.tmp/xapian-100k' },
  before: { type: 'string' }, 'before-db': { type: 'string' },
} });
if (!values.db) {
  console.error('usage: node bench/peers/speed.ts --db CORPUS [--requests N] [--xapian DIR]');
  process.exit(2);
}
if (spawnSync(PYTHON, ['-c', 'import xapian'], { stdio: 'ignore' }).status !== 0) {
  console.error('speed: python3-xapian is missing (node bench/peers/run.ts installs it with apt)');
  process.exit(2);
}
const service = await searchService(values.db);
const { corpus } = service;

/** Streams every decision of the corpus into a new Xapian index. */
async function buildXapian(dir: string): Promise<void> {
  const started = performance.now();
  const child = spawn(PYTHON, [SCRIPT, 'index', dir], { stdio: ['pipe', 'inherit', 'inherit'] });
  const done = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`xapian index: exit ${code}`)))));
  const files = corpus.prepare('SELECT aktenzeichen FROM decision_file_numbers WHERE decision_id = ? ORDER BY position');
  for (const d of corpus.prepare('SELECT id, ecli, title FROM decisions').iterate() as Iterable<{ id: string; ecli: string | null; title: string | null }>) {
    const parts = chunkTexts(corpus, d.id);
    const line = JSON.stringify({ key: d.id, ecli: d.ecli, title: d.title,
      aktenzeichen: (files.all(d.id) as { aktenzeichen: string }[]).map((f) => f.aktenzeichen).join(' '),
      lead: parts.filter((p) => LEAD.includes(p.section ?? '')).map((p) => p.text).join('\n'),
      body: parts.filter((p) => !LEAD.includes(p.section ?? '')).map((p) => p.text).join('\n') });
    if (!child.stdin.write(`${line}\n`)) await new Promise((resolve) => child.stdin.once('drain', resolve));
  }
  child.stdin.end();
  await done;
  console.log(`xapian: indexed the corpus into ${dir} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

if (!existsSync(values.xapian)) await buildXapian(values.xapian);
const xapian = spawn(PYTHON, [SCRIPT, 'serve', values.xapian], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = createInterface({ input: xapian.stdout })[Symbol.asyncIterator]();
/** Xapian's own time for a query (its process measures it; the pipe is not counted). */
let xapianMs = 0;
const askXapian = async (query: string) => {
  xapian.stdin.write(`${query.replace(/\n/gu, ' ')}\n`);
  xapianMs = (JSON.parse((await answers.next()).value as string) as { ms: number }).ms;
};

const ok = (response: { status: number; body: string }) => {
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
};
type Service = Awaited<ReturnType<typeof searchService>>;
const searchOn = (on: Service) => (mode: string, query: string) =>
  httpGet(`${on.url}/api/v1/decisions/search?${new URLSearchParams({ query, mode })}`, { authorization: on.authorization() }).then(ok);
const search = searchOn(service);

/** The older checkout's server and its way to forget kept answers and texts, or null without --before. */
async function beforeTree() {
  if (!values.before) return null;
  const load = (path: string) => import(pathToFileURL(resolve(values.before!, path)).href);
  const [lib, answers, texts] = await Promise.all([load('bench/lib.ts'), load('src/search/answer-cache.ts'), load('src/search/page-texts.ts')]);
  const older = await lib.searchService(values['before-db'] ?? values.db) as Service;
  return {
    service: older,
    fresh: async (mode: string, query: string) => {
      answers.clearAnswers(older.corpus);
      texts.dropPageTexts(older.corpus);
      await searchOn(older)(mode, query);
    },
  };
}
const before = await beforeTree();

/**
 * The same corpus served by a process of its own (bench/peers/speed-server.ts, with the flags and malloc settings
 * bin/juralite gives `juralite serve`): how a firm's client meets the shipped server, its garbage and CPU apart from
 * this client's. Before each of its timed requests it is told to forget kept answers and texts (not timed).
 */
async function ownProcessServer() {
  const child = spawn(process.execPath, ['--min-semi-space-size=16', '--max-semi-space-size=16', SERVER, '--db', values.db!],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=1073741824', ...process.env } });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const { url } = JSON.parse((await lines.next()).value as string) as { url: string };
  return {
    /** Forgets kept answers and texts in the server process; resolves with the next request's authorization. */
    forget: async () => {
      child.stdin.write('forget\n');
      return (await lines.next()).value as string;
    },
    search: (mode: string, query: string, authorization: string) =>
      httpGet(`${url}/api/v1/decisions/search?${new URLSearchParams({ query, mode })}`, { authorization }).then(ok),
    close: () => child.stdin.end(),
  };
}
const apart = await ownProcessServer();

const requests = Number(values.requests);
const { legal, mixed } = benchQueries(requests);
const table: (string | number)[][] = [['measure', 'p50 ms', 'p95 ms', 'p99 ms', 'x Xapian p50', 'x Xapian p95', 'target']];
const TARGETS: Record<string, string> = { keyword: 'p50 <= 5, p95 <= 15', hybrid: 'p50 <= 12, p95 <= 30' };
for (const [mode, queries] of [['keyword', legal], ['hybrid', mixed]] as const) {
  const [xapianTimes, mine, older, again, olderAgain, ownProcess]: number[][] = [[], [], [], [], [], []];
  const timed = async (samples: number[] | null, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    samples?.push(performance.now() - started);
  };
  // The first 50 queries untimed (warm-up), then every query timed; with an older checkout beside, both trees' new
  // queries, the one asking first alternating by query.
  for (const [index, query] of [...queries.slice(0, WARMUP), ...queries].entries()) {
    const counted = index >= WARMUP;
    await askXapian(query);
    if (counted) xapianTimes.push(xapianMs);
    const ours = () => timed(counted ? mine : null, async () => {
      clearAnswers(corpus);
      dropPageTexts(corpus);
      await search(mode, query);
    });
    const theirs = () => (before ? timed(counted ? older : null, () => before.fresh(mode, query)) : Promise.resolve());
    for (const run of index % 2 === 0 ? [ours, theirs] : [theirs, ours]) await run();
    const oursAgain = () => timed(counted ? again : null, () => search(mode, query));
    const theirsAgain = () => (before ? timed(counted ? olderAgain : null, () => searchOn(before.service)(mode, query)) : Promise.resolve());
    for (const run of index % 2 === 0 ? [oursAgain, theirsAgain] : [theirsAgain, oursAgain]) await run();
    const authorization = await apart.forget();
    await timed(counted ? ownProcess : null, () => apart.search(mode, query, authorization));
  }
  const peer = stats(xapianTimes);
  table.push([`Xapian in-process, defaults (${mode} queries)`, peer.p50, peer.p95, peer.p99, '1.00', '1.00', '']);
  const rows: [string, number[]][] = [[`${mode}: HTTP, new query`, mine], [`${mode}: HTTP, same query again (kept answer)`, again],
    [`${mode}: HTTP, new query, server in its own process`, ownProcess]];
  if (before) {
    rows.push([`${mode}: HTTP, new query, before (${values.before})`, older],
      [`${mode}: HTTP, same query again (kept answer), before`, olderAgain]);
  }
  for (const [name, samples] of rows) {
    const s = stats(samples);
    table.push([name, s.p50, s.p95, s.p99, (s.p50 / peer.p50).toFixed(1), (s.p95 / peer.p95).toFixed(1), TARGETS[mode]]);
  }
}
const { n } = corpus.prepare('SELECT count(*) AS n FROM decisions').get() as { n: number };
console.log(`speed beside Xapian: ${requests} queries per mode, ${n} decisions; node ${process.version}`);
printTable(table);
xapian.stdin.end();
apart.close();
service.close();
before?.service.close();
