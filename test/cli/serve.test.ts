/** `juralite serve` with no configuration, as `npm start` runs it: demo corpus, local account, token file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServeProcess } from '../helpers/serve-process.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;

/** Stops the child; once this resolves its output pipes are read to the end. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null && child.stdout!.closed && child.stderr!.closed) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  await closed;
}

test('first start builds the demo corpus, creates a local token (0600) and serves', async () => {
  const data = mkdtempSync(join(tmpdir(), 'juralite-serve-'));
  try {
    const { child, url, output } = await startServeProcess(['--data', join(data, 'fresh')]);
    try {
      const tokenFile = join(data, 'fresh', 'token.txt');
      assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
      const token = readFileSync(tokenFile, 'utf8').trim();
      // Printed to a pipe (a journal, a log file), the token would be kept there: only the file's path is.
      assert.ok(!output.includes(token), 'the token is not printed when stdout is no terminal');
      assert.ok(output.includes(tokenFile), 'the token file is named');
      assert.equal(statSync(join(data, 'fresh')).mode & 0o777, 0o700, 'the data directory is 0700');
      assert.equal(statSync(join(data, 'fresh', 'state.db')).mode & 0o777, 0o600, 'state.db is 0600');
      if (process.platform === 'linux' && process.env.GLIBC_TUNABLES === undefined) {
        // The server runs with glibc's malloc tunables (bin/juralite): the same process, its environment says so (as
        // glibc's loader leaves it: the separator may be rewritten).
        const environment = readFileSync(`/proc/${child.pid}/environ`, 'utf8');
        assert.match(environment, /GLIBC_TUNABLES=glibc\.malloc\.mmap_threshold=268435456.glibc\.malloc\.trim_threshold=1073741824/u);
        // ... and V8's young generation fixed (the flags on its command line).
        const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
        assert.ok(commandLine.includes('--min-semi-space-size=16') && commandLine.includes('--max-semi-space-size=16'), commandLine.join(' '));
      }
      const reply = await fetch(`${url}/api/v1/corpus/coverage`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(reply.status, 200);
      const body = await reply.json() as { total_decisions: { value: number } };
      assert.ok(body.total_decisions.value >= 40, `demo corpus holds ${body.total_decisions.value} decisions`);
    } finally {
      await stop(child);
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('serve --db of a missing file says that a corpus placed there needs a restart, and how to build one', async () => {
  const data = mkdtempSync(join(tmpdir(), 'juralite-serve-'));
  try {
    const corpus = join(data, 'missing.db');
    const { child, printed } = await startServeProcess(['--data', data, '--db', corpus]);
    await stop(child);
    const output = printed();
    assert.ok(output.includes(`no corpus at ${corpus}; corpus operations answer 503 until one is placed there and the service `
      + `restarted (or build one: juralite import --db ${corpus} SOURCES)`), output);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('serve on a port in use says so in plain words and exits', async () => {
  const data = mkdtempSync(join(tmpdir(), 'juralite-serve-'));
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(18532, '127.0.0.1', resolve));
  try {
    const args = ['serve', '--data', data, '--db', join(data, 'missing.db'), '--port', '18532'];
    const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /^juralite: cannot listen: port 18532 on 127\.0\.0\.1 is in use/m);
    assert.doesNotMatch(result.stderr, /EADDRINUSE/);
  } finally {
    blocker.close();
    rmSync(data, { recursive: true, force: true });
  }
});
