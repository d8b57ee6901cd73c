/**
 * GET /decisions/{id} through HTTP against the same lookup done directly on the corpus, in one run.
 *
 *   node bench/generate.ts --count 100000 --out .tmp/gen-100k
 *   node bin/juralite import --db .tmp/bench-100k.db .tmp/gen-100k
 *   node bench/get-decision.ts --db .tmp/bench-100k.db [--requests 2000]
 *
 * Three rows: the raw SQL (the decision row by primary key), the full reader in-process (resolution, sections, file
 * numbers, slicing: what the handler does), and the HTTP round trip (auth, rate limit, ledger, JSON, keep-alive).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openServices, listen } from '../src/server.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { createToken } from '../src/accounts/tokens.ts';
import { findDecision } from '../src/corpus/find-decision.ts';
import { readDecision } from '../src/corpus/read-decision.ts';
import { httpGet, printTable, stats, tearDown, timeEach } from './lib.ts';

const { values } = parseArgs({ options: { db: { type: 'string' }, requests: { type: 'string', default: '2000' } } });
if (!values.db) {
  console.error('usage: node bench/get-decision.ts --db CORPUS [--requests N]');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'juralite-bench-'));
const services = openServices({ corpusPath: values.db, statePath: join(dir, 'state.db') });
const corpus = services.corpus!;
const { organization } = createOrganization(services.state, { name: 'bench', plan: 'enterprise' }, new Date());
// Enough headroom: one token per 50 requests keeps the per-token rate limit out of the measurement.
const requests = Number(values.requests);
const tokens = Array.from({ length: Math.ceil(requests / 50) + 2 }, () =>
  createToken(services.state, { organizationId: organization.id, abilities: ['read'] }, new Date()).token);
const ids = (corpus.prepare('SELECT id FROM decisions ORDER BY random() LIMIT ?').all(requests) as { id: string }[]).map((row) => row.id);
const total = (corpus.prepare('SELECT count(*) AS n FROM decisions').get() as { n: number }).n;
services.config.plans.enterprise.dailyDocuments = Number.MAX_SAFE_INTEGER;

const rawSql = corpus.prepare('SELECT * FROM decisions WHERE id = ?');
// One untimed pass over every id first: whichever row is measured first would otherwise pay for reading the pages
// from disk into the cache, and the later rows would look cheap beside it.
for (const id of ids) JSON.stringify(readDecision(corpus, findDecision(corpus, id), { max_chars: 40_000 }));
const raw = await timeEach(ids, (id) => rawSql.get(id));
const reader = await timeEach(ids, (id) => JSON.stringify(readDecision(corpus, findDecision(corpus, id), { max_chars: 40_000 })));
const { server, url } = await listen(services, '127.0.0.1', 0);
let call = 0;
const http = await timeEach(ids, async (id) => {
  const response = await httpGet(`${url}/api/v1/decisions/${id}`, { authorization: `Bearer ${tokens[Math.floor(call++ / 50)]}` });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body}`);
}, 0);

const rows: (string | number)[][] = [['measure', 'p50 ms', 'p95 ms', 'p99 ms', 'x raw p50', 'x reader p50']];
const base = stats(raw).p50;
const inProcess = stats(reader).p50;
for (const [name, samples] of [['raw SQL by id', raw], ['reader in-process', reader], ['HTTP GET /decisions/{id}', http]] as const) {
  const s = stats(samples);
  rows.push([name, s.p50, s.p95, s.p99, (s.p50 / base).toFixed(2), (s.p50 / inProcess).toFixed(2)]);
}
console.log(`GET /decisions/{id}: ${ids.length} random decisions of ${total}, node ${process.version}`);
printTable(rows);
tearDown([server], services, dir);
