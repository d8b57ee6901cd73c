/**
 * What an operator watches (issue 31): /healthz and /readyz, /metrics in the Prometheus text format (parsed), and
 * the access log, one JSON line per request holding neither the token nor the query or checked text. A real server
 * on 127.0.0.1 over real SQLite files; MCP calls with the official SDK client over the server's own /mcp.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../helpers/api.ts';
import { connectHttp } from '../mcp/helpers.ts';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { fixtureId } from '../helpers/demo-corpus.ts';
import { createAccessLog } from '../../src/observability/access-log.ts';
import { createMetrics } from '../../src/observability/metrics.ts';
import { listenMetrics } from '../../src/observability/metrics-server.ts';
import { observabilitySettings, type Observability } from '../../src/observability/observability.ts';
import { pollUntilExtracted, upload } from '../uploads/client.ts';
import type { Services } from '../../src/operations/operation.ts';

/** A token's secret: all after `jl_<id>_` (base64url may itself hold '_', so not the third part of a split). */
const secretOf = (token: string) => token.split('_').slice(2).join('_');
const LEGAL_TEXT = 'Die Klägerin stützt ihren Anspruch auf § 823 Abs. 1 BGB und § 573 Abs. 2 Nr. 2 BGB; '
  + 'vgl. BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12, Rn. 10. Die Revision der Beklagten hat keinen Erfolg.';

/** A server whose log lines are collected, with metrics at /metrics. */
async function observedApi(options: { logQueries?: boolean; format?: 'json' | 'pretty' } = {}) {
  const lines: string[] = [];
  const api = await startApi({
    corpus: 'demo',
    observability: (services: Services): Observability => ({
      log: createAccessLog({ level: 'debug', format: options.format ?? 'json', destination: { write: (line: string) => { lines.push(line); } } }),
      logQueries: options.logQueries ?? false,
      metrics: createMetrics(services),
      metricsAt: 'api',
    }),
  });
  return { api, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

async function scrape(api: Api) {
  const response = await fetch(`${api.url}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, families: parsePrometheusText(text) };
}

test('/healthz and /readyz: unauthenticated, free, tiny; readyz names what is not ready with 503', async () => {
  const api = await startApi();
  const bare = await startApi({ corpus: 'none' });
  try {
    const health = await api.call('GET', '/healthz');
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok' });
    assert.ok(health.bytes! < 100);
    assert.equal(health.headers.get('cache-control'), 'no-store');
    const ready = await api.call('GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready', checks: { corpus: 'ok', state: 'ok', extraction: 'ok' } });
    assert.equal((await fetch(`${api.url}/readyz`, { method: 'HEAD' })).status, 200);
    assert.equal((await api.call('POST', '/healthz')).headers.get('allow'), 'GET, HEAD');

    const noCorpus = await bare.call('GET', '/readyz');
    assert.equal(noCorpus.status, 503);
    assert.equal(noCorpus.body.status, 'not_ready');
    assert.equal(noCorpus.body.checks.corpus, 'no corpus file is open');
    assert.equal(noCorpus.body.checks.state, 'ok');
    assert.equal((await bare.call('GET', '/healthz')).status, 200, 'the process is up all the same');

    // A state database that refuses writes (as a read-only file does) makes the service not ready, and ready again.
    api.services.state.pragma('query_only = 1');
    const readOnly = await api.call('GET', '/readyz');
    assert.equal(readOnly.status, 503);
    assert.equal(readOnly.body.checks.state, 'the state database is read-only');
    api.services.state.pragma('query_only = 0');
    assert.equal((await api.call('GET', '/readyz')).status, 200);
  } finally {
    await api.close();
    await bare.close();
  }
});

test('/readyz: the extraction pool stopped is not ready', async () => {
  const { stopUploads } = await import('../../src/uploads/service.ts');
  const api = await startApi();
  try {
    await stopUploads(api.services);
    const reply = await api.call('GET', '/readyz');
    assert.equal(reply.status, 503);
    assert.equal(reply.body.checks.extraction, 'the extraction pool is not running');
  } finally {
    await api.close();
  }
});

test('/metrics: calls by operation, transport and status, latency, credits, 402 and 429 by code, corpus and queue; no token, no text', async () => {
  const { api } = await observedApi();
  try {
    const org = api.org({ plan: 'starter' });
    const token = org.token();
    const query = 'Eigenbedarfskuendigung Haertefall';
    assert.equal((await api.call('GET', `/api/v1/decisions/search?query=${encodeURIComponent(query)}`, { token })).status, 200);
    assert.equal((await api.call('GET', `/api/v1/decisions/${fixtureId(1)}`, { token })).status, 200);
    assert.equal((await api.call('GET', '/api/v1/corpus/coverage')).status, 401);
    // Over MCP, on the server's own /mcp.
    const client = await connectHttp(`${api.url}/mcp`, token);
    const result = await client.callTool({ name: 'get_corpus_coverage', arguments: {} });
    assert.notEqual(result.isError, true);
    await client.close();
    // 429 rate_limited: the 61st call of a minute.
    const limited = org.token();
    const statuses = [];
    for (let i = 0; i < 61; i++) statuses.push((await api.call('GET', '/api/v1/corpus/coverage', { token: limited })).status);
    assert.equal(statuses.at(-1), 429);
    // 402: nothing left to pay with.
    const poor = api.org();
    poor.spendAll();
    assert.equal((await api.call('GET', `/api/v1/decisions/search?query=Miete`, { token: poor.token() })).status, 402);

    // One upload extracted: its time in the extraction histogram.
    const uploaded = (await upload(api, token, 'Die Kündigung stützt sich auf § 573 Abs. 2 Nr. 2 BGB. '.repeat(20), 'brief.txt')).body;
    assert.equal((await pollUntilExtracted(api, token, uploaded.id)).status, 'ready');

    const { text, families } = await scrape(api);
    const calls = (labels: Record<string, string>) => sampleValue(families, 'juralite_requests_total', labels);
    assert.equal(calls({ operation: 'search_decisions', transport: 'rest', status: '200' }), 1);
    assert.equal(calls({ operation: 'search_decisions', transport: 'rest', status: '402' }), 1);
    assert.equal(calls({ operation: 'get_corpus_coverage', transport: 'rest', status: '401' }), 1);
    assert.equal(calls({ operation: 'get_corpus_coverage', transport: 'mcp', status: '200' }), 1);
    assert.equal(calls({ operation: 'get_corpus_coverage', transport: 'rest', status: '429' }), 1);
    assert.equal(sampleValue(families, 'juralite_refusals_total', { code: 'rate_limited' }), 1);
    assert.equal(sampleValue(families, 'juralite_refusals_total', { code: 'insufficient_credits', operation: 'search_decisions' }), 1);
    assert.equal(sampleValue(families, 'juralite_credits_charged_total', { operation: 'search_decisions', transport: 'rest' }), 1);
    assert.equal(sampleValue(families, 'juralite_credits_charged_total', { operation: 'get_decision', transport: 'rest' }), 1);
    assert.equal(sampleValue(families, 'juralite_request_duration_seconds_count', { operation: 'get_decision', transport: 'rest' }), 1);
    assert.ok(sampleValue(families, 'juralite_request_duration_seconds_sum', { operation: 'get_decision', transport: 'rest' }) > 0);
    assert.equal(families.get('juralite_request_duration_seconds')?.type, 'histogram');
    assert.equal(sampleValue(families, 'juralite_corpus_decisions'), 50);
    assert.ok(sampleValue(families, 'juralite_corpus_size_bytes') > 0);
    assert.ok(sampleValue(families, 'juralite_corpus_as_of_timestamp_seconds') > Date.parse('2020-01-01') / 1000);
    assert.equal(sampleValue(families, 'juralite_extraction_queue_length'), 0);
    assert.equal(sampleValue(families, 'juralite_extraction_duration_seconds_count', { status: 'ready', format: 'text' }), 1);
    assert.equal(families.get('juralite_extraction_duration_seconds')?.type, 'histogram');
    // The demo corpus was imported, never synced: the sync gauges are declared and hold no series.
    assert.equal(families.get('juralite_sync_items')?.type, 'gauge');
    assert.equal(sampleValue(families, 'juralite_build_info', { release: api.services.config.release }), 1);
    assert.ok(families.has('process_cpu_user_seconds_total'), 'the process metrics are there too');
    for (const secret of [token, secretOf(token), query, 'Eigenbedarf', org.id]) assert.ok(!text.includes(secret), secret);
  } finally {
    await api.close();
  }
});

test('metrics are off by default, and on a port of their own serve only /metrics', async () => {
  const api = await startApi();
  try {
    assert.equal((await api.call('GET', '/metrics')).status, 404);
    const { server, url } = await listenMetrics(createMetrics(api.services), '127.0.0.1', 0);
    try {
      const response = await fetch(url);
      assert.equal(response.status, 200);
      assert.ok(parsePrometheusText(await response.text()).has('juralite_requests_total'));
      assert.equal((await fetch(url.replace('/metrics', '/api/v1/search'))).status, 404);
    } finally {
      server.close();
    }
  } finally {
    await api.close();
  }
});

test('the settings: metrics off unless asked for, the flag before the environment; wrong values named', () => {
  const settings = (env: Record<string, string>, flag?: string) => observabilitySettings(env, flag, false);
  assert.equal(settings({}).metricsAt, 'off');
  assert.equal(settings({ JURALITE_METRICS: 'on' }).metricsAt, 'api');
  assert.deepEqual(settings({ JURALITE_METRICS: 'on' }, '9464').metricsAt, { host: '127.0.0.1', port: 9464 });
  assert.deepEqual(settings({}, '0.0.0.0:9464').metricsAt, { host: '0.0.0.0', port: 9464 });
  assert.deepEqual(settings({}, '[::1]:9464').metricsAt, { host: '::1', port: 9464 });
  assert.throws(() => settings({}, 'true'), /--metrics \(JURALITE_METRICS\) must be off, on, PORT or HOST:PORT \(got "true"\)/);
  assert.throws(() => settings({}, '70000'), /must be off, on, PORT/);
  assert.throws(() => settings({}, 'localhost:'), /must be off, on, PORT/);
  assert.equal(settings({}).format, 'json');
  assert.equal(observabilitySettings({}, undefined, true).format, 'pretty');
  assert.equal(settings({ JURALITE_LOG_FORMAT: 'pretty' }).format, 'pretty');
  assert.throws(() => settings({ JURALITE_LOG_LEVEL: 'loud' }), /JURALITE_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent/);
  assert.equal(settings({ JURALITE_LOG_QUERIES: '1' }).logQueries, true);
  assert.equal(settings({}).logQueries, false);
});

test('access log: one JSON line per request with id, operation, status, duration, cost, organization; never the token or the text', async () => {
  const { api, entries, lines } = await observedApi();
  try {
    const org = api.org({ plan: 'starter' });
    const token = org.token();
    const query = 'Eigenbedarfskuendigung Haertefall';
    const search = await api.call('GET', `/api/v1/decisions/search?query=${encodeURIComponent(query)}`, { token });
    const check = await api.call('POST', '/api/v1/citation-checks', { token, body: { text: LEGAL_TEXT }, headers: { 'x-request-id': 'proxy-42' } });
    assert.equal(check.status, 200);
    const refused = await api.call('GET', '/api/v1/corpus/coverage', { token: `${token}x` });
    // A request id that is no id (too long, spaces) is replaced.
    const odd = await api.call('GET', '/healthz', { headers: { 'x-request-id': 'a b' } });

    assert.equal(lines.length, 4, 'one line per request');
    const [searchLine, checkLine, refusedLine, healthLine] = entries();
    assert.deepEqual({ ...searchLine, time: undefined, duration_ms: undefined, ip: undefined }, {
      level: 'info', time: undefined, msg: 'request', request_id: search.headers.get('x-request-id'), method: 'GET',
      path: '/api/v1/decisions/search', status: 200, duration_ms: undefined, ip: undefined, transport: 'rest',
      operation: 'search_decisions', organization: org.id, cost: 1,
    });
    assert.match(searchLine.request_id, /^[0-9a-f-]{36}$/);
    assert.ok(searchLine.duration_ms > 0);
    assert.equal(checkLine.request_id, 'proxy-42');
    assert.equal(check.headers.get('x-request-id'), 'proxy-42');
    assert.equal(checkLine.operation, 'check_citations');
    assert.equal(checkLine.cost, check.body.credits.cost);
    assert.equal(refusedLine.status, 401);
    assert.equal(refusedLine.code, 'unauthenticated');
    assert.equal(refusedLine.organization, undefined);
    assert.equal(healthLine.level, 'debug', 'probes are logged at debug');
    assert.notEqual(odd.headers.get('x-request-id'), 'a b');
    assert.equal(healthLine.request_id, odd.headers.get('x-request-id'));
    const all = lines.join('\n');
    for (const secret of [token, secretOf(token), query, 'Eigenbedarf', LEGAL_TEXT.slice(0, 30), 'Klägerin']) {
      assert.ok(!all.includes(secret), `the log holds ${secret}`);
    }
  } finally {
    await api.close();
  }
});

test('access log with query logging on: the arguments are there (REST and MCP), the token still not', async () => {
  const { api, entries, lines } = await observedApi({ logQueries: true });
  try {
    const token = api.org({ plan: 'starter' }).token();
    await api.call('GET', '/api/v1/decisions/search?query=Mietminderung', { token });
    const client = await connectHttp(`${api.url}/mcp`, token);
    await client.callTool({ name: 'search_decisions', arguments: { query: 'Schimmel' } });
    await client.close();
    const logged = entries();
    assert.equal(logged[0].args.query, 'Mietminderung');
    const mcpLine = logged.find((entry) => entry.operation === 'search_decisions' && entry.transport === 'mcp');
    assert.ok(mcpLine, JSON.stringify(logged));
    assert.deepEqual(mcpLine.args, { query: 'Schimmel' });
    assert.equal(mcpLine.path, '/mcp');
    assert.ok(!lines.join('\n').includes(secretOf(token)));
  } finally {
    await api.close();
  }
});

test('access log on a terminal: readable lines', async () => {
  const { api, lines } = await observedApi({ format: 'pretty' });
  try {
    const token = api.org().token();
    await api.call('GET', '/api/v1/corpus/coverage', { token });
    assert.match(lines[0], /^\d\d:\d\d:\d\d\.\d{3} INFO  GET \/api\/v1\/corpus\/coverage 200 [\d.]+ ms request_id=[0-9a-f-]{36} .*operation=get_corpus_coverage .*cost=0\n$/);
  } finally {
    await api.close();
  }
});
