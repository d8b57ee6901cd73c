/** `juralite serve` with no configuration, as `npm start` runs it: demo corpus, local account, token file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;

test('first start builds the demo corpus, creates a local token (0600) and serves', async () => {
  const data = mkdtempSync(join(tmpdir(), 'juralite-serve-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--data', join(data, 'fresh'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "serving" line:\n${output}`)), 30_000);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /serving (http:\/\/\S+)\/api\/v1/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.stderr.on('data', (chunk) => { output += chunk; });
    });
    const tokenFile = join(data, 'fresh', 'token.txt');
    assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    assert.ok(output.includes(token), 'the token is printed once on first start');
    const reply = await fetch(`${url}/api/v1/corpus/coverage`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(reply.status, 200);
    const body = await reply.json() as { total_decisions: { value: number } };
    assert.ok(body.total_decisions.value >= 40, `demo corpus holds ${body.total_decisions.value} decisions`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(data, { recursive: true, force: true });
  }
});
