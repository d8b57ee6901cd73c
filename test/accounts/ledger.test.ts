import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openState } from '../../src/accounts/state-db.ts';
import { createOrganization, createUser, verifyUser } from '../../src/accounts/organizations.ts';
import { balanceOf, chargeInTransaction, grantCredits } from '../../src/accounts/ledger.ts';
import { inWriteTransaction } from '../../src/accounts/state-db.ts';
import { DEFAULT_PLAN_TERMS, STARTER_CREDITS } from '../../src/accounts/plans.ts';

const plans = DEFAULT_PLAN_TERMS;
const at = (iso: string) => new Date(iso);

function setup(plan: 'free' | 'starter', now: Date) {
  const state = openState(':memory:');
  const { organization } = createOrganization(state, { name: 'Kanzlei', plan }, now);
  const charge = (cost: number, resultKey: string, when: Date) =>
    inWriteTransaction(state, () => chargeInTransaction(state, organization, plans, { operation: 'get_decision', resultKey, cost }, when));
  const balance = (when: Date) => balanceOf(state, organization, plans, when);
  return { state, organization, charge, balance };
}

test('a new organization has its first user\'s starter credits on top of the monthly allotment', () => {
  const now = at('2026-03-10T12:00:00Z');
  assert.deepEqual(setup('free', now).balance(now), { monthly: 0, bonus: STARTER_CREDITS, total: STARTER_CREDITS });
  assert.deepEqual(setup('starter', now).balance(now), { monthly: 500, bonus: 30, total: 530 });
});

test('each newly verified user brings starter credits once; verifying again brings nothing', () => {
  const now = at('2026-03-10T12:00:00Z');
  const { state, organization, balance } = setup('free', now);
  const user = createUser(state, { organizationId: organization.id, name: 'Referendarin' }, now);
  assert.equal(balance(now).total, 30);
  verifyUser(state, user.id, now);
  verifyUser(state, user.id, now);
  assert.equal(balance(now).total, 60);
});

test('charges take the monthly allotment first, then bonus credits', () => {
  const now = at('2026-03-10T12:00:00Z');
  const { charge, balance } = setup('starter', now);
  charge(499, 'a', now);
  assert.deepEqual(balance(now), { monthly: 1, bonus: 30, total: 31 });
  charge(5, 'b', now);
  assert.deepEqual(balance(now), { monthly: 0, bonus: 26, total: 26 });
});

test('the monthly allotment renews at the start of the UTC month; bonus credits carry over', () => {
  const { charge, balance } = setup('starter', at('2026-03-31T23:59:00Z'));
  charge(510, 'a', at('2026-03-31T23:59:00Z'));
  assert.deepEqual(balance(at('2026-03-31T23:59:59Z')), { monthly: 0, bonus: 20, total: 20 });
  assert.deepEqual(balance(at('2026-04-01T00:00:00Z')), { monthly: 500, bonus: 20, total: 520 });
});

test('a result paid this month is free; next month it costs again', () => {
  const { charge, balance } = setup('starter', at('2026-03-05T00:00:00Z'));
  assert.equal(charge(3, 'same', at('2026-03-05T00:00:00Z')).cost, 3);
  assert.equal(charge(3, 'same', at('2026-03-31T23:00:00Z')).cost, 0);
  assert.equal(charge(3, 'other', at('2026-03-31T23:00:00Z')).cost, 3);
  assert.equal(balance(at('2026-03-31T23:00:00Z')).total, 530 - 6);
  assert.equal(charge(3, 'same', at('2026-04-01T00:00:01Z')).cost, 3);
});

test('a charge above the balance is refused and writes nothing', () => {
  const now = at('2026-03-10T12:00:00Z');
  const { state, charge, balance } = setup('free', now);
  const rows = () => (state.prepare('SELECT count(*) AS n FROM ledger').get() as { n: number }).n;
  const before = rows();
  const outcome = charge(31, 'too-much', now);
  assert.equal(outcome.charged, false);
  assert.equal(rows(), before);
  assert.equal(balance(now).total, 30);
});

test('grants add bonus credits; the ledger refuses updates and deletes', () => {
  const now = at('2026-03-10T12:00:00Z');
  const { state, organization, balance } = setup('free', now);
  grantCredits(state, organization.id, 100, 'goodwill', now);
  assert.equal(balance(now).total, 130);
  assert.throws(() => grantCredits(state, organization.id, -5, 'x', now), /positive whole number/);
  assert.throws(() => state.prepare('UPDATE ledger SET bonus_delta = 1000').run(), /append-only/);
  assert.throws(() => state.prepare('DELETE FROM ledger').run(), /append-only/);
});

test('the running sums always equal the ledger, and a state file written before them gets them derived on open', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-ledger-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'state.db');
  const march = at('2026-03-10T12:00:00Z');
  const april = at('2026-04-02T08:00:00Z');
  let state = openState(path);
  const { organization } = createOrganization(state, { name: 'Kanzlei', plan: 'starter' }, march);
  const charge = (cost: number, key: string, when: Date) =>
    inWriteTransaction(state, () => chargeInTransaction(state, organization, plans, { operation: 'x', resultKey: key, cost }, when));
  for (let i = 0; i < 40; i++) charge(13, `m${i}`, march);
  grantCredits(state, organization.id, 7, 'goodwill', march);
  charge(5, 'a1', april);
  const fromLedger = (when: Date) => {
    const month = state.prepare(`SELECT coalesce(sum(monthly_delta), 0) AS m FROM ledger WHERE organization_id = ? AND month = ?`)
      .get(organization.id, when.toISOString().slice(0, 7)) as { m: number };
    const bonus = state.prepare('SELECT coalesce(sum(bonus_delta), 0) AS b FROM ledger WHERE organization_id = ?').get(organization.id) as { b: number };
    return month.m + bonus.b;
  };
  const expected = [balanceOf(state, organization, plans, march), balanceOf(state, organization, plans, april)];
  assert.deepEqual(expected.map((b) => b.total), [fromLedger(march), fromLedger(april)]);
  // Without the sums (a state file of an earlier release), reopening derives them from the ledger.
  state.exec('DELETE FROM ledger_sums');
  state.close();
  state = openState(path);
  t.after(() => state.close());
  assert.deepEqual([balanceOf(state, organization, plans, march), balanceOf(state, organization, plans, april)], expected);
});

test('a state file of version 1 loses the unread ledger index on open; a charge still writes its ledger row, paid result and sums together or not at all', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-ledger-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'state.db');
  const now = at('2026-03-10T12:00:00Z');
  let state = openState(path);
  const { organization } = createOrganization(state, { name: 'Kanzlei', plan: 'starter' }, now);
  // As a release before state version 2 left the file: the index over every ledger row by organization and month.
  state.exec('CREATE INDEX ledger_by_org_month ON ledger(organization_id, month); PRAGMA user_version = 1');
  state.close();
  state = openState(path);
  t.after(() => state.close());
  const indexes = () => state.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'ledger'").pluck().all();
  assert.deepEqual(indexes().sort(), ['ledger_bonus', 'ledger_one_allotment']);
  assert.equal(state.pragma('user_version', { simple: true }), 2);
  const counts = () => state.prepare(`SELECT (SELECT count(*) FROM ledger WHERE kind = 'charge') AS charges,
    (SELECT count(*) FROM paid_results) AS paid`).get() as { charges: number; paid: number };
  const charge = (key: string) => inWriteTransaction(state, () => chargeInTransaction(state, organization, plans, { operation: 'x', resultKey: key, cost: 2 }, now));
  charge('a');
  charge('a');
  charge('b');
  assert.deepEqual(counts(), { charges: 2, paid: 2 }, 'the repeat is free and writes nothing');
  assert.deepEqual(balanceOf(state, organization, plans, now), { monthly: 496, bonus: 30, total: 526 });
  // A call that fails after its charge, inside the same transaction, leaves neither ledger row nor paid result behind.
  assert.throws(() => inWriteTransaction(state, () => {
    chargeInTransaction(state, organization, plans, { operation: 'x', resultKey: 'd', cost: 2 }, now);
    throw new Error('the call failed after its charge');
  }), /failed after its charge/);
  assert.deepEqual(counts(), { charges: 2, paid: 2 });
  assert.deepEqual(balanceOf(state, organization, plans, now), { monthly: 496, bonus: 30, total: 526 });
});
