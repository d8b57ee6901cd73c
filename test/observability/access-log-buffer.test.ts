/**
 * The access log's default destination is buffered (src/observability/access-log.ts): a request's line does not cost
 * a write of its own, yet a line leaves within LOG_FLUSH_MS on a quiet server and none is lost when the process exits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { bufferedLogDestination, createAccessLog, LOG_FLUSH_MS, logRequest } from '../../src/observability/access-log.ts';

const MODULE = new URL('../../src/observability/access-log.ts', import.meta.url).href;
const line = (log: pino.Logger, id: string) => logRequest(log, { id, cost: 0 }, { method: 'GET', path: '/api/v1/decisions/x' }, 200, 1);

test('a line waits in the buffer, then leaves within LOG_FLUSH_MS though nothing else is logged', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-log-'));
  const path = join(dir, 'access.log');
  const destination = pino.destination(bufferedLogDestination(path));
  try {
    const log = createAccessLog({ level: 'info', format: 'json', destination });
    await new Promise((resolve) => destination.once('ready', resolve));
    line(log, 'first');
    await sleep(50);
    assert.equal(readFileSync(path, 'utf8'), '', 'one short line is not written by itself');
    await sleep(LOG_FLUSH_MS + 500);
    assert.match(readFileSync(path, 'utf8'), /"request_id":"first"/u);
  } finally {
    destination.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs a script in a child process that logs through the default destination (stdout); its stdout and exit code. */
function child(script: string): Promise<{ out: string; code: number | null; lineBeforeExitMs: number | null }> {
  return new Promise((resolve, reject) => {
    let firstLineAt: number | null = null;
    const process_ = spawn(process.execPath, ['--input-type=module', '-e', `
      import { createAccessLog, logRequest } from ${JSON.stringify(MODULE)};
      const log = createAccessLog({ level: 'info', format: 'json' });
      const line = (id) => logRequest(log, { id, cost: 0 }, { method: 'GET', path: '/x' }, 200, 1);
      ${script}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    process_.stdout.on('data', (chunk) => {
      firstLineAt ??= Date.now();
      out += chunk;
    });
    process_.on('error', reject);
    process_.on('close', (code) => resolve({ out, code, lineBeforeExitMs: firstLineAt === null ? null : Date.now() - firstLineAt }));
  });
}

test('the default destination writes every line on exit, and a quiet process\'s line while it runs', async () => {
  const exiting = await child(`for (let i = 0; i < 5; i++) line('exit-' + i); process.exit(0);`);
  assert.equal(exiting.code, 0);
  assert.deepEqual(exiting.out.trim().split('\n').map((text) => JSON.parse(text).request_id), ['exit-0', 'exit-1', 'exit-2', 'exit-3', 'exit-4']);
  // The child stays up 4 s after its one line: the line must arrive (within LOG_FLUSH_MS) long before it exits.
  const quiet = await child(`line('quiet'); setTimeout(() => {}, 4000);`);
  assert.match(quiet.out, /"request_id":"quiet"/u);
  assert.ok(quiet.lineBeforeExitMs !== null && quiet.lineBeforeExitMs > 2000, `the line came ${quiet.lineBeforeExitMs} ms before the exit`);
});
