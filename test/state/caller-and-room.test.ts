/**
 * StateStore.callerAndRoom, on SQLite and PostgreSQL: the caller, the balance and today's volume a metered call reads
 * before it runs, read together, answer exactly what authenticate, balanceOf and volumeUsed answer one by one, and
 * refuse every token authenticate refuses with the same problem. On PostgreSQL, while the server is down, a caller
 * this node knows is still recognised, without balance or volume (the call then reads them and gets its 503).
 * The PostgreSQL half skips, saying why, without PostgreSQL binaries.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { DEFAULT_PLAN_TERMS } from '../../src/accounts/plans.ts';
import { ApiError } from '../../src/errors.ts';
import { stateAdmin } from '../../src/state/admin.ts';
import { openPostgresStore, type PostgresStore } from '../../src/state/postgres-store.ts';
import { SqliteStore } from '../../src/state/sqlite-store.ts';
import type { StateStore } from '../../src/state/store.ts';

const terms = DEFAULT_PLAN_TERMS;
const now = new Date('2026-11-27T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'juralite-caller-and-room-'));
let postgres: TestPostgres | undefined;
after(async () => {
  await postgres?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A refusal as the caller sees it: its code and message (or the error itself when it is no ApiError). */
const refusalOf = async (read: Promise<unknown>) => read.then(() => 'accepted', (error: unknown) =>
  (error instanceof ApiError ? `${error.code}: ${error.message}` : error));

async function checkEngine(store: StateStore) {
  const admin = stateAdmin(store);
  const { organization } = await admin.createOrganization({ name: 'Kanzlei', plan: 'starter' }, now);
  const { token } = await admin.createToken({ organizationId: organization.id, abilities: ['search', 'read'] }, now);
  const bearer = `Bearer ${token}`;
  // Something spent and served today, from both pools' point of view: a grant, a charge, rows counted.
  await admin.grantCredits(organization.id, 7, 'test', now);
  await store.commitCall({ organization, terms, charge: { operation: 'search_decisions', resultKey: 'k', cost: 3 },
    volume: { unit: 'rows', amount: 20 }, writes: [] }, now);

  for (const unit of ['rows', 'documents', undefined] as const) {
    const read = await store.callerAndRoom(bearer, now, { terms, unit });
    assert.deepEqual(read.caller, await store.authenticate(bearer, now));
    assert.deepEqual(read.balance, await store.balanceOf(organization, terms, now));
    assert.equal(read.volumeUsed, unit && await store.volumeUsed(organization.id, unit, now));
  }
  const read = await store.callerAndRoom(bearer, now, { terms, unit: 'rows' });
  assert.equal(read.volumeUsed, 20);
  assert.equal(read.balance!.total, (await store.balanceOf(organization, terms, now)).total);

  const { token: expiring } = await admin.createToken({ organizationId: organization.id, abilities: ['read'], days: 1 }, now);
  const { token: revoked, record } = await admin.createToken({ organizationId: organization.id, abilities: ['read'] }, now);
  await admin.revokeToken(record.id, now);
  const [, id] = /^jl_([0-9a-f]{16})_/.exec(token)!;
  const refused = [
    undefined, '', 'Basic abc', 'Bearer nonsense', `Bearer jl_${'0'.repeat(16)}_${'A'.repeat(43)}`,
    `Bearer jl_${id}_${'B'.repeat(43)}`, `Bearer ${revoked}`,
  ];
  for (const authorization of refused) {
    const alone = await refusalOf(store.authenticate(authorization, now));
    assert.notEqual(alone, 'accepted', String(authorization));
    assert.deepEqual(await refusalOf(store.callerAndRoom(authorization, now, { terms, unit: 'rows' })), alone, String(authorization));
  }
  const later = new Date(now.getTime() + 2 * 86_400_000);
  assert.match(String(await refusalOf(store.callerAndRoom(`Bearer ${expiring}`, later, { terms }))), /^unauthenticated: This token has expired/);
  return { bearer, organization };
}

test('SQLite: callerAndRoom reads what authenticate, balanceOf and volumeUsed read, and refuses alike', async () => {
  const store = new SqliteStore(join(dir, 'state.db'));
  try {
    const { bearer, organization } = await checkEngine(store);
    // One statement reads it all (src/accounts/caller-and-room.ts): the rows the lookups one by one would read, also
    // for a user with two-factor sign-in, a token without user, one without organization (409) and a deleted
    // organization (401), and a month and a day without ledger sums or volume.
    const admin = stateAdmin(store);
    const user = await admin.createUser({ organizationId: organization.id, name: 'Zweite', email: 'z@example.org' }, now);
    await admin.setTwoFactor(user.id, true);
    const { token: ofUser } = await admin.createToken({ organizationId: organization.id, userId: user.id, abilities: ['read'] }, now);
    const [, userless] = /^jl_([0-9a-f]{16})_/.exec((await admin.createToken({ organizationId: organization.id, abilities: ['read'] }, now)).token)!;
    store.db.prepare('UPDATE tokens SET user_id = NULL WHERE id = ?').run(userless);
    const withoutUser = (await admin.listTokens(organization.id)).find((token) => token.id === userless)!;
    assert.equal(withoutUser.user_id, null);
    const nextMonth = new Date('2026-12-31T23:30:00Z');
    for (const [authorization, at] of [[`Bearer ${ofUser}`, now], [bearer, nextMonth]] as const) {
      const read = await store.callerAndRoom(authorization, at, { terms, unit: 'documents' });
      // As JSON: the same fields in the same order (an answer or a listing shows them so).
      assert.equal(JSON.stringify(read.caller), JSON.stringify(await store.authenticate(authorization, at)));
      assert.deepEqual(read.balance, await store.balanceOf(read.caller.organization, terms, at));
      assert.equal(read.volumeUsed, await store.volumeUsed(organization.id, 'documents', at));
    }
    assert.equal((await store.callerAndRoom(`Bearer ${ofUser}`, now, { terms })).caller.user?.two_factor_enabled, true);
    assert.equal((await store.callerAndRoom(`Bearer ${ofUser}`, nextMonth, { terms, unit: 'rows' })).volumeUsed, 0);
    const orphan = `jl_${'a'.repeat(16)}_${'C'.repeat(43)}`;
    store.db.prepare('INSERT INTO tokens (id, organization_id, user_id, secret_sha256, abilities, created_at, expires_at) VALUES (?, NULL, NULL, ?, ?, ?, ?)')
      .run('a'.repeat(16), createHash('sha256').update('C'.repeat(43)).digest(), 'read', now.toISOString(), '2027-06-01T00:00:00.000Z');
    const gone = await admin.createOrganization({ name: 'Aufgelöst', plan: 'free' }, now);
    const { token: ofGone } = await admin.createToken({ organizationId: gone.organization.id, abilities: ['read'] }, now);
    store.db.prepare('UPDATE organizations SET deleted_at = ? WHERE id = ?').run(now.toISOString(), gone.organization.id);
    for (const [authorization, refusal] of [[`Bearer ${orphan}`, /^token_org_missing/], [`Bearer ${ofGone}`, /^unauthenticated/]] as const) {
      const alone = await refusalOf(store.authenticate(authorization, now));
      assert.match(String(alone), refusal);
      assert.deepEqual(await refusalOf(store.callerAndRoom(authorization, now, { terms, unit: 'rows' })), alone);
    }
  } finally {
    await store.close();
  }
});

test('PostgreSQL: the same, and a known caller without balance or volume while the server is down', { skip: POSTGRES_MISSING }, async () => {
  postgres = await startPostgres();
  const store: PostgresStore = await openPostgresStore(await postgres.newDatabase(), { max: 4 });
  try {
    const { bearer, organization } = await checkEngine(store);
    postgres.stop();
    const read = await store.callerAndRoom(bearer, now, { terms, unit: 'rows' });
    assert.equal(read.caller.organization.id, organization.id);
    assert.equal(read.balance, undefined);
    assert.equal(read.volumeUsed, undefined);
    // What the call then reads on its own fails as before: 503, nothing charged.
    assert.match(String(await refusalOf(store.balanceOf(organization, terms, now))), /^backend_unavailable/);
    postgres.start();
  } finally {
    await store.close();
  }
});
