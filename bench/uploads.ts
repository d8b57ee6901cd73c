/**
 * Document uploads: extraction throughput of a 50-page PDF and a 50-page DOCX, and whether 20 concurrent uploads
 * (extracted in the worker processes) slow down GET /decisions/{id} on the same server.
 *
 *   node bench/uploads.ts [--db CORPUS] [--requests 1000] [--runs 5]
 *
 * Without --db the demo corpus is built from fixtures/ into .tmp/. The documents are written by the tests' own writers
 * (test/helpers/documents.ts) from the corpus's decision texts: 50 pages of 40 lines (PDF), the same lines as 50 x 40
 * paragraphs with a footnote every 10 (DOCX). Part 1 times extraction in this process (what one worker does) and
 * through the pool (a worker process, the text sent back). Part 2 measures the GET latency alone, then while 10 PDF
 * and 10 DOCX uploads are received and extracted (the check's 20,000-character cap makes them too_long: the whole
 * document is still read), with the event loop's delay beside it. Target: p95 during uploads <= 2 x p95 alone.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openServices, listen } from '../src/server.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { createToken } from '../src/accounts/tokens.ts';
import { extractDocument, type ExtractionTask } from '../src/uploads/extract/extract-document.ts';
import { ExtractionPool } from '../src/uploads/pool.ts';
import { uploadsOf } from '../src/uploads/service.ts';
import { docx, pdf } from '../test/helpers/documents.ts';
import { ensureDemoCorpus, httpGet, printTable, stats, tearDown } from './lib.ts';

const { values } = parseArgs({ options: {
  db: { type: 'string' }, requests: { type: 'string', default: '1000' }, runs: { type: 'string', default: '5' },
} });
const corpusPath = values.db ?? '.tmp/bench-uploads-demo.db';
await ensureDemoCorpus(corpusPath);
const dir = mkdtempSync(join(tmpdir(), 'juralite-bench-'));
const services = openServices({ corpusPath, statePath: join(dir, 'state.db') });
const corpus = services.corpus!;

// --- The documents -----------------------------------------------------------------------------------------------

const PAGES = 50;
const LINES_PER_PAGE = 40;
/** Lines of about 90 characters from the corpus's decisions; WinAnsi-safe for the PDF writer. */
const words = (corpus.prepare('SELECT decision_text(text_zstd) AS full_text FROM decisions ORDER BY id').all() as { full_text: string }[])
  .map((row) => row.full_text).join(' ').replace(/[^\u0020-\u00ff]/g, ' ').split(/\s+/).filter(Boolean);
const lines: string[] = [];
for (let at = 0; lines.length < PAGES * LINES_PER_PAGE; ) {
  let line = '';
  while (line.length < 90) line += `${words[at++ % words.length]} `;
  lines.push(line.trim());
}
const pages = Array.from({ length: PAGES }, (_, page) => lines.slice(page * LINES_PER_PAGE, (page + 1) * LINES_PER_PAGE));
const documents = {
  pdf: pdf(pages),
  docx: docx({
    paragraphs: lines.map((line, index) => (index % 10 === 9 ? `${line}[^${(index + 1) / 10}]` : line)),
    footnotes: Array.from({ length: lines.length / 10 }, (_, index) => `Vgl. BGH, Urteil vom 14. Mai 2019 - VI ZR 496/18, Rn. ${index + 1}.`),
  }),
};
const files = Object.fromEntries(Object.entries(documents).map(([format, data]) => {
  const path = join(dir, `50-pages.${format}`);
  writeFileSync(path, data);
  return [format, path];
})) as Record<'pdf' | 'docx', string>;

// --- 1. Extraction throughput ------------------------------------------------------------------------------------

const runs = Number(values.runs);
const task = (format: 'pdf' | 'docx'): ExtractionTask =>
  ({ path: files[format], format, maxChars: Number.MAX_SAFE_INTEGER, maxUncompressedBytes: 100e6 });
const pool = new ExtractionPool({ ...services.config.uploads, workers: 1 });
const throughput: (string | number)[][] = [['document', 'where', 'MB', 'chars', 'p50 ms', 'max ms', 'pages/s', 'MB/s']];
for (const format of ['pdf', 'docx'] as const) {
  for (const [where, extract] of [['in-process', extractDocument], ['worker process', (t: ExtractionTask) => pool.run(t, 'bench')]] as const) {
    await extract(task(format)); // warm-up: module loading, a process to start
    const samples: number[] = [];
    let chars = 0;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const outcome = await extract(task(format));
      samples.push(performance.now() - started);
      if (outcome.status !== 'ready') throw new Error(`${format}: ${JSON.stringify(outcome)}`);
      chars = outcome.char_count!;
    }
    const s = stats(samples);
    const megabytes = documents[format].length / 1e6;
    throughput.push([`50-page ${format.toUpperCase()}`, where, megabytes.toFixed(2), String(chars), s.p50, Math.max(...samples),
      (PAGES / (s.p50 / 1000)).toFixed(0), (megabytes / (s.p50 / 1000)).toFixed(2)]);
  }
}
await pool.close();
console.log(`Extraction, ${runs} runs each after a warm-up, node ${process.version}, ${services.config.uploads.workers} worker(s) configured`);
printTable(throughput);

// --- 2. GET /decisions/{id} alone and during 20 concurrent uploads -----------------------------------------------

const { organization } = createOrganization(services.state, { name: 'bench', plan: 'enterprise' }, new Date());
services.config.plans.enterprise.dailyDocuments = Number.MAX_SAFE_INTEGER;
const requests = Number(values.requests);
/** A fresh token every 50 calls keeps the per-token rate limit (60 a minute) out of the measurement. */
let readToken = '';
const newReadToken = () => createToken(services.state, { organizationId: organization.id, abilities: ['read'] }, new Date()).token;
const ids = (corpus.prepare('SELECT id FROM decisions ORDER BY id').all() as { id: string }[]).map((row) => row.id);
const { server, url } = await listen(services, '127.0.0.1', 0);
let call = 0;

/** GETs one after another until `until` says stop (at least `minimum` of them): their latencies in ms. */
async function getDecisions(minimum: number, until: () => boolean): Promise<number[]> {
  const samples: number[] = [];
  while (samples.length < minimum || !until()) {
    if (call % 50 === 0) readToken = newReadToken();
    const started = performance.now();
    const response = await httpGet(`${url}/api/v1/decisions/${ids[call++ % ids.length]}?max_chars=5000`, { authorization: `Bearer ${readToken}` });
    samples.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body}`);
  }
  return samples;
}

function eventLoopDelay() {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  return () => {
    histogram.disable();
    return { p50: histogram.percentile(50) / 1e6, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
  };
}

await getDecisions(500, () => true); // warm-up: JIT and caches, so that "alone" is not its slowest phase
let delay = eventLoopDelay();
const alone = await getDecisions(requests, () => true);
const aloneDelay = delay();

const uploads = uploadsOf(services);
const uploadTokens = Array.from({ length: 20 }, () =>
  createToken(services.state, { organizationId: organization.id, abilities: ['citation-check'] }, new Date()).token);
delay = eventLoopDelay();
const uploadsStarted = performance.now();
let extracting = true;
const sent = Promise.all(uploadTokens.map(async (token, index) => {
  const format = index % 2 ? 'docx' : 'pdf';
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(documents[format])]), `brief-${index}.${format}`);
  const response = await fetch(`${url}/api/v1/citation-check-documents`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 202) throw new Error(`upload ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
})).then(async (uploaded) => {
  // Every upload accepted; now until the last extraction is recorded.
  await uploads.settled();
  extracting = false;
  return uploaded;
});
const during = await getDecisions(50, () => !extracting);
const uploadedIds = await sent;
const uploadsMs = performance.now() - uploadsStarted;
const duringDelay = delay();

const outcomes = services.state.prepare(`SELECT status, error_code, count(*) AS n FROM uploads WHERE id IN (${uploadedIds.map(() => '?').join(',')})
  GROUP BY status, error_code`).all(...uploadedIds) as { status: string; error_code: string | null; n: number }[];
const a = stats(alone);
const b = stats(during);
console.log(`\nGET /decisions/{id} (max_chars=5000) over the ${ids.length} decisions of ${corpusPath}, one connection, `
  + `alone and while 20 uploads (10 PDF, 10 DOCX of 50 pages) were received and extracted `
  + `(${(uploadsMs / 1000).toFixed(1)} s; outcomes ${outcomes.map((row) => `${row.n} ${row.status}${row.error_code ? `/${row.error_code}` : ''}`).join(', ')})`);
printTable([
  ['phase', 'requests', 'p50 ms', 'p95 ms', 'p99 ms', 'loop delay p99 ms', 'loop delay max ms', 'x p95 alone', 'target'],
  ['alone', String(a.n), a.p50, a.p95, a.p99, aloneDelay.p99, aloneDelay.max, '1.00', ''],
  ['during 20 uploads', String(b.n), b.p50, b.p95, b.p99, duringDelay.p99, duringDelay.max, (b.p95 / a.p95).toFixed(2),
    b.p95 <= 2 * a.p95 ? '<= 2.00 pass' : '<= 2.00 FAIL'],
]);

tearDown([server], services, dir);
