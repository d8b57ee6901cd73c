/**
 * The SQLite state's checkpoints off the request path (src/state/wal-checkpoints.ts): a server's charged calls no
 * longer copy the write-ahead log into the database file inside their commits; the checkpoint thread does, and the
 * money it copies is intact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore, CHECKPOINT_THREAD_AFTER_COMMITS } from '../../src/state/sqlite-store.ts';
import { FALLBACK_AUTOCHECKPOINT, startWalCheckpoints } from '../../src/state/wal-checkpoints.ts';
import { openState } from '../../src/accounts/state-db.ts';
import { createOrganization } from '../../src/accounts/organizations.ts';
import { balanceOf } from '../../src/accounts/ledger.ts';
import { DEFAULT_PLAN_TERMS } from '../../src/accounts/plans.ts';

const plans = structuredClone(DEFAULT_PLAN_TERMS);
plans.enterprise.monthlyCredits = 1_000_000;
plans.enterprise.dailyRows = 1_000_000;
const now = new Date('2026-03-10T12:00:00Z');

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

test('a server\'s charged calls leave the checkpoints to the thread, which copies them into the file; the balance holds', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-checkpoints-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'state.db');
  const store = new SqliteStore(path);
  const { organization } = createOrganization(store.db, { name: 'Kanzlei', plan: 'enterprise' }, now);
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  const fileBytes = () => statSync(path).size;
  const walPages = () => statSync(`${path}-wal`).size / 4096;
  const before = fileBytes();
  const credits = balanceOf(store.db, organization, plans, now).total;
  store.checkpointInThread();
  // 400 charged calls write some 1,000 pages to the log: SQLite's own threshold, where a commit checkpointed.
  for (let call = 0; call < 400; call++) {
    await store.commitCall({ organization, terms: plans, charge: { operation: 'search_decisions', resultKey: `k${call}`, cost: 1 },
      volume: { unit: 'rows', amount: 20 }, writes: [] }, now);
    // Before the thread is started no commit checkpoints either (the threshold is raised with it): the file keeps its size.
    if (call === CHECKPOINT_THREAD_AFTER_COMMITS - 2) assert.equal(fileBytes(), before);
  }
  assert.ok(walPages() > 1000, `the log holds ${walPages()} pages`);
  assert.equal(store.db.pragma('wal_autocheckpoint', { simple: true }), FALLBACK_AUTOCHECKPOINT, 'the commits checkpoint only as a fallback');
  // The thread copies them within its round (1 s): the file grows, the log is backfilled.
  await until(() => fileBytes() > before);
  const reader = openState(path);
  t.after(() => reader.close());
  assert.equal(reader.prepare("SELECT count(*) FROM ledger WHERE kind = 'charge'").pluck().get(), 400);
  assert.equal(balanceOf(reader, organization, plans, now).total, credits - 400);
  await store.close();
});

test('no thread where the state is in memory, on one core, or locked exclusively', () => {
  const memory = openState(':memory:');
  assert.equal(startWalCheckpoints(memory), null);
  memory.close();
  const dir = mkdtempSync(join(tmpdir(), 'juralite-checkpoints-'));
  const db = openState(join(dir, 'state.db'));
  try {
    assert.equal(startWalCheckpoints(db, 1000, 1), null);
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 1000, 'the commits checkpoint as SQLite does by default');
    db.pragma('locking_mode = EXCLUSIVE');
    assert.equal(startWalCheckpoints(db, 1000, 2), null, 'a state opened exclusively (no room for its shared memory)');
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
