/**
 * What the access log and the metrics cost a request (issue 31: "well under 0.1 ms"). Two measures, printed:
 *
 * 1. The bookkeeping alone, in a loop: a request id, the access log line (pino, JSON, to /dev/null, asynchronously as
 *    `juralite serve` writes stdout; the loop yields every 100 requests so the lines are written) and the metrics of
 *    one call (prom-client counters and histogram); beside it JSON.stringify of the same line, the machine's yardstick.
 * 2. Keyword searches over HTTP on the demo corpus, interleaved between two servers on the same services: one quiet
 *    (no log, no metrics), one observed (log line to /dev/null, metrics on); p50 and p95 of each and the difference.
 *
 *   node bench/observability.ts [--requests 2000] [--db .tmp/demo-corpus.db]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { listen, openServices } from '../src/server.ts';
import { createOrganization } from '../src/accounts/organizations.ts';
import { ABILITIES, createToken } from '../src/accounts/tokens.ts';
import { createAccessLog, logRequest, requestIdOf, type RequestRecord } from '../src/observability/access-log.ts';
import { createMetrics } from '../src/observability/metrics.ts';
import type { Observability } from '../src/observability/observability.ts';
import { ensureDemoCorpus, httpGet, printTable, stats, tearDown, timeInterleaved } from './lib.ts';

const { values } = parseArgs({ options: {
  requests: { type: 'string', default: '2000' },
  db: { type: 'string', default: '.tmp/demo-corpus.db' },
} });
const requests = Number(values.requests);
await ensureDemoCorpus(values.db);
const dir = mkdtempSync(join(tmpdir(), 'juralite-bench-observability-'));
const services = openServices({ corpusPath: values.db, statePath: join(dir, 'state.db') });
const observability: Observability = {
  log: createAccessLog({ level: 'info', format: 'json', destination: pino.destination({ dest: '/dev/null', sync: false }) }),
  logQueries: false,
  metrics: createMetrics(services),
  metricsAt: 'api',
};

// 1. The bookkeeping alone.
const loops = 200_000;
const started = performance.now();
for (let i = 0; i < loops; i++) {
  if (i % 100 === 0) await new Promise(setImmediate);
  const record: RequestRecord = { id: requestIdOf(null), cost: 1, operation: 'search_decisions', transport: 'rest', organization: 'b52a5f3a-499e-44f2-942b-1fd8bbfa2bad' };
  observability.metrics!.observeCall({ operation: 'search_decisions', transport: 'rest', status: 200, seconds: 0.012, cost: 1 });
  logRequest(observability.log, record, { method: 'GET', path: '/api/v1/decisions/search', ip: '127.0.0.1' }, 200, 12.3);
}
const perRequestMs = (performance.now() - started) / loops;
const yardstickStarted = performance.now();
for (let i = 0; i < loops; i++) {
  JSON.stringify({ level: 'info', time: new Date().toISOString(), request_id: requestIdOf(null), method: 'GET', path: '/api/v1/decisions/search',
    status: 200, duration_ms: 12.3, ip: '127.0.0.1', transport: 'rest', operation: 'search_decisions', cost: 1, msg: 'request' });
}
const yardstickMs = (performance.now() - yardstickStarted) / loops;

// 2. Over HTTP: the same searches against a quiet and an observed server, interleaved.
const quiet = await listen(services, '127.0.0.1', 0);
const observed = await listen(services, '127.0.0.1', 0, undefined, observability);
const now = new Date();
const { organization } = createOrganization(services.state, { name: 'Bench', plan: 'enterprise' }, now);
// One token per 50 requests: the per-token limit (60 a minute) stays out of the way.
const tokens = Array.from({ length: Math.ceil((requests + 100) * 2 / 50) },
  () => createToken(services.state, { organizationId: organization.id, abilities: [...ABILITIES] }, now).token);
let calls = 0;
const search = (base: string) => async (query: string) => {
  const token = tokens[Math.floor(calls++ / 50)];
  const { status } = await httpGet(`${base}/api/v1/decisions/search?mode=keyword&query=${encodeURIComponent(query)}`,
    { authorization: `Bearer ${token}` });
  if (status !== 200) throw new Error(`search answered ${status}`);
};
const QUERIES = ['Mietminderung Schimmel', 'Eigenbedarf Kündigung', 'Schadensersatz Verkehrsunfall', 'Kündigungsschutz Abmahnung',
  'Baugenehmigung Nachbar', 'Rückforderung Überzahlung'];
const inputs = Array.from({ length: requests }, (_, index) => QUERIES[index % QUERIES.length]);
const [quietMs, observedMs] = await timeInterleaved(inputs, [search(quiet.url), search(observed.url)], 100);
const [q, o] = [stats(quietMs), stats(observedMs)];
tearDown([quiet.server, observed.server], services, dir);

console.log(`bookkeeping alone (id, log line to /dev/null, metrics of one call), ${loops} loops: ${(perRequestMs * 1000).toFixed(2)} µs a request`);
console.log(`yardstick: JSON.stringify of the same line: ${(yardstickMs * 1000).toFixed(2)} µs\n`);
printTable([
  ['keyword search over HTTP (ms)', 'p50', 'p95', 'mean'],
  ['quiet server', q.p50, q.p95, q.mean],
  ['observed server', o.p50, o.p95, o.mean],
  ['difference', o.p50 - q.p50, o.p95 - q.p95, o.mean - q.mean],
]);
