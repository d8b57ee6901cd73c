/**
 * Scale (issue [scale]): generates and imports N decisions (bench/generate.ts, seed fixed), then prints the corpus
 * file's size per table and index, the import's rate per step of decisions, the resident memory of the import and
 * of a serving process, and the latency targets of bench/README.md measured over HTTP on 127.0.0.1: GET
 * /decisions/{id}, keyword and hybrid search, graph depth 1, a 20,000-character citation check. Never part of
 * `npm test`.
 *
 *   node bench/scale.ts --count 100000 [--dir .tmp/scale] [--seed 1] [--step 50000] [--requests 300] [--peer .tmp/scale/scale-100000.json]
 *
 * The generated folder and the corpus are kept in --dir and reused when present (delete the corpus to import again).
 * Figures go to DIR/scale-N.json as well; --peer prints an earlier run's (another N) beside this one.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { benchQueries } from './search-queries.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { openState } from '../src/accounts/state-db.ts';
import { ABILITIES, createToken } from '../src/accounts/tokens.ts';
import { openCorpus } from '../src/corpus/open.ts';
import { sizePerObject } from './db-size.ts';
import { printTable, stats } from './lib.ts';

const { values } = parseArgs({ options: {
  count: { type: 'string', default: '100000' }, dir: { type: 'string', default: '.tmp/scale' }, seed: { type: 'string', default: '1' },
  step: { type: 'string', default: '50000' }, requests: { type: 'string', default: '300' }, peer: { type: 'string' },
} });
const count = Number(values.count);
const step = Math.min(Number(values.step), count);
const requests = Number(values.requests);
/** Untimed calls of a read (GET, graph) before its timed ones. */
const READS_WARM_UP = 1000;
const dir = values.dir!;
mkdirSync(dir, { recursive: true });
const generated = join(dir, `gen-${count}`);
const corpusPath = join(dir, `scale-${count}.db`);
const resultPath = join(dir, `scale-${count}.json`);
const cli = new URL('../bin/juralite', import.meta.url).pathname;

const mb = (bytes: number) => bytes / 1e6;
function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0; // the process just ended
  }
}

/** Runs a child to its end; calls onLine for each line of its stdout and stderr; returns its peak RSS (MB). */
function runChild(args: string[], onLine: (line: string) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let peak = 0;
    const timer = setInterval(() => { peak = Math.max(peak, rssMb(child.pid!)); }, 1000);
    for (const stream of [child.stdout!, child.stderr!]) createInterface({ input: stream }).on('line', onLine);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code === 0) resolve(peak);
      else reject(new Error(`${args.join(' ')} exited with ${code}`));
    });
  });
}

interface ImportFigures { wallS: number; peakRssMb: number; perStep: { upTo: number; seconds: number; rate: number }[] }

/** Imports the generated folder, noting when each step of decisions was passed (the importer's progress lines). */
async function importCorpus(): Promise<ImportFigures> {
  const started = performance.now();
  const passed: { upTo: number; at: number }[] = [];
  const peakRssMb = await runChild([cli, 'import', '--db', corpusPath, generated], (line) => {
    console.log(`  ${line}`);
    const match = /^juralite import: (\d+) documents handled in/.exec(line);
    const done = match ? Number(match[1]) : /^documents: /.test(line) ? count : 0;
    while (done >= (passed.length + 1) * step && passed.length < Math.ceil(count / step)) {
      passed.push({ upTo: (passed.length + 1) * step, at: (performance.now() - started) / 1000 });
    }
  });
  const wallS = (performance.now() - started) / 1000;
  const perStep = passed.map((entry, index) => {
    const seconds = entry.at - (index > 0 ? passed[index - 1].at : 0);
    return { upTo: entry.upTo, seconds, rate: step / seconds };
  });
  return { wallS, peakRssMb, perStep };
}

interface Latency { p50: number; p95: number; n: number }
interface ServeFigures { startRssMb: number; endRssMb: number; latency: Record<string, Latency> }

/** Draws inputs from the corpus (seeded by the row order): decision ids, decisions citing others, check texts. */
function inputsOf(path: string) {
  const db = openCorpus(path, { readonly: true });
  try {
    const n = (db.prepare('SELECT count(*) FROM decisions').pluck().get() as number);
    const every = Math.max(1, Math.floor(n / requests));
    const ids = db.prepare('SELECT id FROM decisions WHERE rowid % ? = 0 LIMIT ?').pluck().all(every, requests) as string[];
    const sources = db.prepare(`SELECT DISTINCT from_decision_id FROM citation_edges WHERE reference_type = 'case'
      AND to_decision_id IS NOT NULL AND id % ? = 0 LIMIT ?`).pluck().all(every * 17, requests) as string[];
    // 20,000 characters each: consecutive decisions' texts joined (a long brief that cites statutes and decisions).
    const texts: string[] = [];
    const text = db.prepare('SELECT decision_text(text_zstd) FROM decisions WHERE rowid % ? = 0 LIMIT 40').pluck();
    let brief = '';
    for (const part of text.all(every) as string[]) {
      brief += `${part}\n\n`;
      if (brief.length >= 20_000) {
        texts.push(brief.slice(0, 20_000));
        brief = '';
      }
    }
    return { ids, sources, texts };
  } finally {
    db.close();
  }
}

// Distinct queries (bench/search-queries.ts): each timed query is asked once, and the untimed pass before asks others,
// so the answer cache (src/search/answer-cache.ts) never answers a timed one: what is timed is the search.
const { legal, mixed } = benchQueries(2000);
const KEYWORD_QUERIES = [...new Set(legal)];
const HYBRID_QUERIES = [...new Set(mixed)];
const keywordCount = Math.min(200, Math.floor(KEYWORD_QUERIES.length / 2));
const hybridCount = Math.min(100, Math.floor(HYBRID_QUERIES.length / 2));

/** Serves the corpus in its own process (bench/load.ts --serve: juralite serve's services) and times each kind. */
async function serveAndMeasure(): Promise<ServeFigures> {
  const stateDir = mkdtempSync(join(tmpdir(), 'juralite-scale-'));
  const statePath = join(stateDir, 'state.db');
  const state = openState(statePath);
  // Tokens in turn: each stays under the per-token rate limits (60 calls, 10 checks a minute).
  const { organization } = createOrganization(state, { name: 'scale bench', plan: 'enterprise' }, new Date());
  const tokens = state.transaction(() => Array.from({ length: Math.ceil(requests / 4) + 20 + Math.ceil((2 * READS_WARM_UP) / 50) }, () =>
    createToken(state, { organizationId: organization.id, abilities: [...ABILITIES] }, new Date()).token))();
  state.close();
  const inputs = inputsOf(corpusPath);
  // The server's memory settings as bin/juralite gives `juralite serve` (its comment says why).
  const server = spawn(process.execPath, ['--min-semi-space-size=16', '--max-semi-space-size=16',
    new URL('./load.ts', import.meta.url).pathname, '--serve', '--db', corpusPath, '--state', statePath], { stdio: ['pipe', 'pipe', 'inherit'],
    env: { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=1073741824', ...process.env, JURALITE_EXTRACTION_WORKERS: '1' } });
  try {
    const { url, pid } = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once('line', resolve)));
    const startRssMb = rssMb(pid);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let turn = 0;
    const call = (method: string, path: string, body?: string) => new Promise<number>((resolve, reject) => {
      const at = performance.now();
      const headers: Record<string, string> = { authorization: `Bearer ${tokens[turn++ % tokens.length]}` };
      if (body) headers['content-type'] = 'application/json';
      const req = request(`${url}${path}`, { method, agent, headers }, (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 200 || response.statusCode === 201
          ? resolve(performance.now() - at) : reject(new Error(`${method} ${path.slice(0, 80)}: ${response.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
    // Each kind: its call, how many are timed, where the untimed pass starts (search: past the timed queries), and how
    // many calls it makes (reads: their inputs again, so that V8 has optimised the path before the timed pass, as on
    // a server that has run a while: GET at 500k was ~1.0 ms in the first 300 timed calls after 300 untimed, 0.7 after
    // 1,000; bench/README "Session 21").
    const kinds: [string, (i: number) => Promise<number>, number, number, number?][] = [
      ['GET /decisions/{id}', (i) => call('GET', `/api/v1/decisions/${inputs.ids[i % inputs.ids.length]}`), requests, 0, READS_WARM_UP],
      ['keyword search', (i) => call('GET', `/api/v1/decisions/search?mode=keyword&query=${encodeURIComponent(KEYWORD_QUERIES[i]!)}`),
        Math.min(requests, keywordCount), keywordCount],
      ['hybrid search', (i) => call('GET', `/api/v1/decisions/search?mode=hybrid&query=${encodeURIComponent(HYBRID_QUERIES[i]!)}`),
        Math.min(requests, hybridCount), hybridCount],
      ['graph depth 1', (i) => call('GET', `/api/v1/decisions/${inputs.sources[i % inputs.sources.length]}/citations`), requests, 0, READS_WARM_UP],
      ['check 20,000 characters', (i) => call('POST', '/api/v1/citation-checks', JSON.stringify({ text: inputs.texts[i % inputs.texts.length] })),
        Math.min(requests, 6 * tokens.length, 60), 0],
    ];
    const latency: Record<string, Latency> = {};
    for (const [kind, run, n, warmFrom, warmUp = n] of kinds) {
      // One untimed pass first (as bench/get-decision.ts): the pages each reads are then in the page cache, as on a
      // server that has run a while, and the first rows measured do not pay for the disk.
      for (let i = 0; i < Math.max(n, warmUp); i++) await run(warmFrom + i);
      const times: number[] = [];
      for (let i = 0; i < n; i++) times.push(await run(i));
      const { p50, p95 } = stats(times);
      latency[kind] = { p50, p95, n };
      console.log(`  ${kind}: p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (${n})`);
    }
    agent.destroy();
    return { startRssMb, endRssMb: rssMb(pid), latency };
  } finally {
    server.kill('SIGTERM');
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const TARGETS: Record<string, string> = {
  'GET /decisions/{id}': 'p50 <= 1 ms', 'keyword search': 'p50 <= 10 ms', 'hybrid search': 'p50 <= 25 ms',
  'graph depth 1': '<= 5 ms', 'check 20,000 characters': '<= 50 ms',
};

if (!existsSync(generated)) {
  console.log(`generating ${count} decisions (seed ${values.seed}) into ${generated} ...`);
  await runChild([new URL('./generate.ts', import.meta.url).pathname, '--count', String(count), '--out', generated, '--seed', values.seed!], console.log);
}
let imported: ImportFigures | undefined;
if (!existsSync(corpusPath)) {
  console.log(`importing into ${corpusPath} ...`);
  imported = await importCorpus();
} else {
  console.log(`${corpusPath} is there: not imported again (delete it to measure the import)`);
}
const sizes = sizePerObject(corpusPath);
const fileMb = mb(statSync(corpusPath).size);
console.log('serving ...');
const served = await serveAndMeasure();
const previous = existsSync(resultPath) ? JSON.parse(readFileSync(resultPath, 'utf8')) : {};
const result = {
  count, at: new Date().toISOString(), machine: `${availableParallelism()} cores, Node ${process.version}, load ${loadavg()[0].toFixed(1)}`,
  fileMb, sizes: sizes.slice(0, 25).map((s) => ({ name: s.name, mb: mb(s.bytes) })), import: imported ?? previous.import, served,
};
writeFileSync(resultPath, JSON.stringify(result, null, 1));
const peer = values.peer && existsSync(values.peer) ? JSON.parse(readFileSync(values.peer, 'utf8')) as typeof result : undefined;

console.log(`\n${count} decisions, ${result.machine}`);
const peerSize = new Map(peer?.sizes.map((s) => [s.name, s.mb]) ?? []);
printTable([['table or index', 'MB', ...(peer ? [`MB at ${peer.count}`] : [])],
  ...result.sizes.map((s) => [s.name, s.mb.toFixed(1), ...(peer ? [peerSize.get(s.name)?.toFixed(1) ?? '-'] : [])]),
  ['(file)', fileMb.toFixed(1), ...(peer ? [peer.fileMb.toFixed(1)] : [])]]);
if (result.import) {
  console.log('');
  printTable([['decisions', 'seconds', 'decisions/s'],
    ...result.import.perStep.map((s: ImportFigures['perStep'][number]) => [`up to ${s.upTo}`, s.seconds.toFixed(0), s.rate.toFixed(0)]),
    ['all', result.import.wallS.toFixed(0), (count / result.import.wallS).toFixed(0)]]);
  console.log(`import peak RSS ${result.import.peakRssMb.toFixed(0)} MB`);
}
console.log('');
printTable([['measure (HTTP, one connection)', 'p50 ms', 'p95 ms', ...(peer ? [`p50 ms at ${peer.count}`] : []), 'target at 500k'],
  ...Object.entries(served.latency).map(([kind, l]) => [kind, l.p50.toFixed(2), l.p95.toFixed(2),
    ...(peer ? [peer.served.latency[kind]?.p50.toFixed(2) ?? '-'] : []), TARGETS[kind]]),
  ['serve RSS MB (start / end)', served.startRssMb.toFixed(0), served.endRssMb.toFixed(0),
    ...(peer ? [`${peer.served.startRssMb.toFixed(0)} / ${peer.served.endRssMb.toFixed(0)}`] : []), '<= 1,500 MB']]);
console.log(`\nwritten ${resultPath}`);
