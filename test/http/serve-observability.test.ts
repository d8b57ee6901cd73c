/**
 * `juralite serve` wired for operators: /healthz and /readyz, --metrics on a port of its own, and JSON access log
 * lines on stdout (not a terminal) holding neither the token nor the query.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;

test('serve --metrics 127.0.0.1:0: probes, metrics apart from the API, and access log lines without token or query', async () => {
  const data = mkdtempSync(join(tmpdir(), 'juralite-serve-observed-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--data', data, '--port', '0', '--metrics', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, JURALITE_LOG_LEVEL: 'info', JURALITE_LOG_FORMAT: '' },
  });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  try {
    const [url, metricsUrl] = await new Promise<[string, string]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not serving:\n${output}`)), 60_000);
      child.stdout.on('data', () => {
        const api = /serving (http:\/\/\S+)\/api\/v1/.exec(output)?.[1];
        const metrics = /metrics at (http:\/\/\S+)/.exec(output)?.[1];
        if (api && metrics) {
          clearTimeout(timer);
          resolve([api, metrics]);
        }
      });
    });
    const token = readFileSync(join(data, 'token.txt'), 'utf8').trim();
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    assert.equal((await fetch(`${url}/metrics`)).status, 404, 'not on the API port');
    const search = await fetch(`${url}/api/v1/decisions/search?query=Eigenbedarfsk%C3%BCndigung`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(search.status, 200);
    const requestId = search.headers.get('x-request-id');
    const families = parsePrometheusText(await (await fetch(metricsUrl)).text());
    assert.equal(sampleValue(families, 'juralite_requests_total', { operation: 'search_decisions', transport: 'rest', status: '200' }), 1);
    // The log line is written asynchronously: wait for it.
    const deadline = Date.now() + 10_000;
    while (!output.includes(`"request_id":"${requestId}"`) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const line = JSON.parse(output.split('\n').find((candidate) => candidate.includes(`"request_id":"${requestId}"`))!);
    assert.equal(line.operation, 'search_decisions');
    assert.equal(line.status, 200);
    assert.equal(line.path, '/api/v1/decisions/search');
    const logged = output.slice(output.indexOf('metrics at'));
    // The secret is what follows 'jl_<16 hex id>_' (base64url: it may itself hold '_').
    assert.ok(!logged.includes(token) && !logged.includes(token.slice('jl_'.length + 16 + 1)), 'no token in the log');
    assert.ok(!/Eigenbedarf/i.test(logged), 'no query in the log');
  } finally {
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await closed;
    rmSync(data, { recursive: true, force: true });
  }
});
