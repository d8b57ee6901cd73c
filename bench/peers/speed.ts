/**
 * Speed beside Xapian (issue [ranking], targets at 100k over HTTP: keyword p50 <= 5 ms, p95 <= 15 ms; hybrid p50 <=
 * 12 ms, p95 <= 30 ms): the same queries (bench/search-queries.ts) to Xapian with its defaults in its own process
 * (its in-process time, bench/peers/xapian-peer.py) and to GET /decisions/search, interleaved query by query, so the
 * ratios hold however this machine's speed drifts. Never part of `npm test`.
 *
 *   node bench/peers/speed.ts --db .tmp/bench-100k.db [--requests 200] [--xapian .tmp/xapian-100k]
 *
 * The Xapian index is built once from the corpus (each decision's Aktenzeichen, ECLI, title, Leitsatz/Tenor and the
 * rest, as bench/peers/run.ts exports them) and kept at --xapian. Rows per mode: a new query (the answer cache
 * and the kept page texts emptied before it: the search itself) and the same query asked again at once (the kept
 * answer).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chunkTexts } from '../../src/corpus/stored-text.ts';
import { clearAnswers } from '../../src/search/answer-cache.ts';
import { dropPageTexts } from '../../src/search/page-texts.ts';
import { httpGet, printTable, searchService, stats, timeInterleaved } from '../lib.ts';
import { benchQueries } from '../search-queries.ts';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./xapian-peer.py', import.meta.url));
const LEAD = ['Leitsatz', 'Orientierungssatz', 'Tenor'];

const { values } = parseArgs({ options: {
  db: { type: 'string' }, requests: { type: 'string', default: '200' }, xapian: { type: 'string', default: '.tmp/xapian-100k' },
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
const search = (mode: string, query: string) =>
  httpGet(`${service.url}/api/v1/decisions/search?${new URLSearchParams({ query, mode })}`, { authorization: service.authorization() }).then(ok);

const requests = Number(values.requests);
const { legal, mixed } = benchQueries(requests);
const table: (string | number)[][] = [['measure', 'p50 ms', 'p95 ms', 'p99 ms', 'x Xapian p50', 'x Xapian p95', 'target']];
const TARGETS: Record<string, string> = { keyword: 'p50 <= 5, p95 <= 15', hybrid: 'p50 <= 12, p95 <= 30' };
for (const [mode, queries] of [['keyword', legal], ['hybrid', mixed]] as const) {
  const xapianTimes: number[] = [];
  const [, fresh, again] = await timeInterleaved(queries, [
    async (query) => {
      await askXapian(query);
      xapianTimes.push(xapianMs);
    },
    async (query) => {
      clearAnswers(corpus);
      dropPageTexts(corpus);
      await search(mode, query);
    },
    (query) => search(mode, query),
  ]);
  const peer = stats(xapianTimes.slice(-queries.length));
  table.push([`Xapian in-process, defaults (${mode} queries)`, peer.p50, peer.p95, peer.p99, '1.00', '1.00', '']);
  for (const [name, samples] of [[`${mode}: HTTP, new query`, fresh], [`${mode}: HTTP, same query again (kept answer)`, again]] as const) {
    const s = stats(samples);
    table.push([name, s.p50, s.p95, s.p99, (s.p50 / peer.p50).toFixed(1), (s.p95 / peer.p95).toFixed(1), TARGETS[mode]]);
  }
}
const { n } = corpus.prepare('SELECT count(*) AS n FROM decisions').get() as { n: number };
console.log(`speed beside Xapian: ${requests} queries per mode, ${n} decisions; node ${process.version}`);
printTable(table);
xapian.stdin.end();
service.close();
