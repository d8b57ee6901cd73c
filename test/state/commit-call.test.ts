/**
 * SqliteStore.commitCall checks the daily cap for all a call served inside its transaction: a call that would carry
 * the day past the cap is refused with 429 volume_cap and leaves nothing behind, neither its charge, nor its paid
 * result, nor its volume; a call that fits to the last row commits all three, and reports the balance the ledger
 * then holds.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PLAN_TERMS } from '../../src/accounts/plans.ts';
import { ApiError } from '../../src/errors.ts';
import { stateAdmin } from '../../src/state/admin.ts';
import { SqliteStore } from '../../src/state/sqlite-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'juralite-commit-call-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const now = new Date('2026-11-27T12:00:00Z');
const terms = { ...DEFAULT_PLAN_TERMS, starter: { ...DEFAULT_PLAN_TERMS.starter, dailyRows: 50 } };

test('a call past the daily cap commits nothing; one that fits to the last row commits its charge and volume', async () => {
  const store = new SqliteStore(join(dir, 'state.db'));
  try {
    const { organization } = await stateAdmin(store).createOrganization({ name: 'Kanzlei', plan: 'starter' }, now);
    await stateAdmin(store).grantCredits(organization.id, 5, 'test', now);
    const call = (resultKey: string, amount: number) => store.commitCall({ organization, terms,
      charge: { operation: 'search_decisions', resultKey, cost: 1 }, volume: { unit: 'rows', amount }, writes: [] }, now);
    const ledgerRows = () => (store.db.prepare('SELECT count(*) AS n FROM ledger').get() as { n: number }).n;

    const first = await call('a', 20);
    assert.deepEqual(first, { charged: true, cost: 1, balance: { monthly: 499, bonus: 35, total: 534 } });
    const rows = ledgerRows();
    await assert.rejects(call('b', 31), (error: unknown) => error instanceof ApiError && error.code === 'volume_cap'
      && /would serve 31 rows, and 30 of the organization's daily cap of 50 are left/.test(error.message));
    assert.equal(ledgerRows(), rows);
    assert.equal(await store.alreadyPaid(organization.id, 'search_decisions', 'b', now), false);
    assert.equal(await store.volumeUsed(organization.id, 'rows', now), 20);

    assert.deepEqual(await call('b', 30), { charged: true, cost: 1, balance: { monthly: 498, bonus: 35, total: 533 } });
    assert.equal(await store.volumeUsed(organization.id, 'rows', now), 50);
    assert.equal(await store.alreadyPaid(organization.id, 'search_decisions', 'b', now), true);
    // Full: one more row is refused, a repeat of a paid result serving nothing passes free.
    await assert.rejects(call('c', 1), /daily cap of 50 rows is reached/);
    assert.deepEqual(await call('a', 0), { charged: true, cost: 0, balance: { monthly: 498, bonus: 35, total: 533 } });
    assert.deepEqual(await store.balanceOf(organization, terms, now), { monthly: 498, bonus: 35, total: 533 });
  } finally {
    await store.close();
  }
});
