/**
 * The PostgreSQL state's schema: created and migrated by the service itself, once however many nodes open it at the
 * same moment (advisory lock), recorded by version; the ledger append-only as on SQLite; `--state` and
 * JURALITE_STATE_URL name it. Skips, saying why, without PostgreSQL binaries.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import pg from 'pg';
import { openPostgresStore } from '../../src/state/postgres-store.ts';
import { PostgresRateLimits } from '../../src/accounts/postgres-rate-limits.ts';
import { RATE_LIMITS } from '../../src/accounts/limits.ts';
import { MIGRATIONS } from '../../src/state/postgres-schema.ts';
import { createOrganizationPg } from '../../src/state/postgres-admin.ts';
import { dataPaths } from '../../src/cli/paths.ts';
import { redactedUrl } from '../../src/state/location.ts';

let postgres: TestPostgres;
before(async () => { if (!POSTGRES_MISSING) postgres = await startPostgres(); });
after(() => postgres?.close());

test('three nodes opening an empty database at once migrate it once; opened again, nothing is applied twice', { skip: POSTGRES_MISSING }, async () => {
  const url = await postgres.newDatabase();
  const stores = await Promise.all([1, 2, 3].map(() => openPostgresStore(url)));
  const again = await openPostgresStore(url);
  try {
    const { rows } = await again.query<{ version: number }>('SELECT version FROM juralite_schema ORDER BY version');
    assert.deepEqual(rows.map((row) => row.version), MIGRATIONS.map((_, i) => i + 1));
  } finally {
    await Promise.all([...stores, again].map((store) => store.close()));
  }
});

test('a state of the first schema is migrated on open: its fixed rate windows become sliding minutes', { skip: POSTGRES_MISSING }, async () => {
  const url = await postgres.newDatabase();
  const old = new pg.Client(url);
  await old.connect();
  await old.query(`BEGIN; CREATE TABLE juralite_schema (version integer PRIMARY KEY, applied_at text NOT NULL); ${MIGRATIONS[0]};
    INSERT INTO juralite_schema VALUES (1, '2026-11-01T00:00:00.000Z');
    INSERT INTO rate_windows VALUES ('t', 'all', 1, 60); COMMIT`);
  await old.end();
  const store = await openPostgresStore(url);
  try {
    const { rows } = await store.query<{ version: number }>('SELECT version FROM juralite_schema ORDER BY version');
    assert.deepEqual(rows.map((row) => row.version), MIGRATIONS.map((_, i) => i + 1));
    const rates = new PostgresRateLimits(store.query);
    const now = new Date();
    for (let call = 0; call < RATE_LIMITS.all; call++) await rates.take('t', ['all'], now);
    await assert.rejects(Promise.resolve(rates.take('t', ['all'], now)), { code: 'rate_limited' });
  } finally {
    await store.close();
  }
});

test('the ledger refuses UPDATE and DELETE, and its running sums follow every row', { skip: POSTGRES_MISSING }, async () => {
  const store = await openPostgresStore(await postgres.newDatabase());
  try {
    const { organizationId } = await createOrganizationPg(store, { name: 'Kanzlei', plan: 'starter' }, new Date());
    await assert.rejects(store.query('UPDATE ledger SET bonus_delta = 1000'), /append-only/);
    await assert.rejects(store.query('DELETE FROM ledger'), /append-only/);
    const { rows: [sums] } = await store.query<{ bonus: number }>("SELECT bonus FROM ledger_sums WHERE organization_id = ? AND month = ''", [organizationId]);
    assert.equal(sums.bonus, 30, 'the starter credits');
  } finally {
    await store.close();
  }
});

test('--state and JURALITE_STATE_URL name a PostgreSQL state as given; its password is never shown', () => {
  const url = 'postgres://juralite:geheim@db.internal:5432/juralite';
  assert.equal(dataPaths({ state: url }, {}).statePath, url);
  assert.equal(dataPaths({}, { JURALITE_STATE_URL: url }).statePath, url);
  assert.equal(dataPaths({ state: 'x/state.db' }, { JURALITE_STATE_URL: url }).statePath.endsWith('x/state.db'), true, '--state wins');
  assert.equal(redactedUrl(url), 'postgres://juralite:***@db.internal:5432/juralite');
});
