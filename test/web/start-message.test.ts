import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCorpus } from '../helpers/demo-corpus.ts';

const BIN = new URL('../../bin/juralite', import.meta.url).pathname;

test('juralite serve names the address of the pages at start, and that address serves them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-start-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--db', await demoCorpus(), '--data', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let output = '';
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const found = /juralite: pages for the browser at (http:\/\/127\.0\.0\.1:\d+\/) /u.exec(output);
        if (found) resolve(found[1]);
      });
      child.once('exit', () => reject(new Error(`serve exited: ${output}`)));
    });
    const page = await fetch(line);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/u);
    assert.match(await page.text(), /<script type="module" src="\/assets\/app.js"><\/script>/u);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
