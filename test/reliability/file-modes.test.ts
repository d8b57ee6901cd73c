/**
 * What the service writes holds client text and is its own user's alone, whatever the umask: directories 0700, files
 * 0600 (issue 26, 7). `juralite serve`'s data directory and the token it prints: test/cli/serve.test.ts.
 *
 * Guards: src/runtime/private-file.ts (a new state or corpus file, its directory, and so -wal and -shm), src/uploads/receive.ts
 * (an upload's file), src/uploads/service.ts (the uploads directory), src/cli/backup.ts (a backup).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openState } from '../../src/accounts/state-db.ts';
import { openCorpus } from '../../src/corpus/open.ts';
import { backupCommand } from '../../src/cli/backup.ts';
import { receiveUpload } from '../../src/uploads/receive.ts';
import { stopUploads, uploadsOf } from '../../src/uploads/service.ts';
import { openServices } from '../../src/server.ts';
import { loadConfig } from '../../src/config.ts';

let dir: string;
let umask: number;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'juralite-modes-'));
  // The most permissive umask: every mode below is the code's own.
  umask = process.umask(0);
});
after(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

test('a new state database: its directory 0700, state.db, -wal and -shm 0600', () => {
  const path = join(dir, 'data', 'state.db');
  const state = openState(path);
  try {
    state.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES ('o', 'O', 'starter', '2026-01-01')").run();
    assert.deepEqual([join(dir, 'data'), path, `${path}-wal`, `${path}-shm`].map(modeOf), ['700', '600', '600', '600']);
  } finally {
    state.close();
  }
});

test('a new corpus file (juralite import, sync, serve): its new directory 0700, the file, -wal and -shm 0600', () => {
  const path = join(dir, 'corpus', 'corpus.db');
  const corpus = openCorpus(path);
  try {
    assert.deepEqual([join(dir, 'corpus'), path, `${path}-wal`, `${path}-shm`].map(modeOf), ['700', '600', '600', '600']);
  } finally {
    corpus.close();
  }
});

test('a backup is 0600', async () => {
  const target = join(dir, 'backup.db');
  await backupCommand(join(dir, 'data', 'state.db'), target);
  assert.equal(modeOf(target), '600');
});

test('the uploads directory is 0700 and an upload\'s file 0600', async () => {
  const services = openServices({ corpusPath: join(dir, 'no-corpus.db'), statePath: join(dir, 'served', 'state.db'), config: loadConfig({}) });
  try {
    const uploads = uploadsOf(services);
    assert.equal(modeOf(uploads.dir), '700');
    const form = new FormData();
    form.append('file', new Blob(['Die Klage ist nach § 823 Abs. 1 BGB begründet.']), 'klage.txt');
    const file = await receiveUpload(new Request('http://127.0.0.1/', { method: 'POST', body: form }), { dir: uploads.dir, maxBytes: 1e6 });
    assert.equal(modeOf(file.path), '600');
  } finally {
    await stopUploads(services);
    services.state.close();
  }
});
