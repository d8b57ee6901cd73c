/**
 * The PostgreSQL state's schema: created and migrated by the service itself, once however many nodes open it at the
 * same moment (advisory lock), recorded by version; the ledger append-only as on SQLite; `--state` and
 * JURALITE_STATE_URL name it. And the two engines' schemas cannot drift: the tables and columns schema/state.sql makes
 * on SQLite (SQLite's own catalog, pragma table_info) are those the migrations make (information_schema.columns), in
 * the same order, with the same NOT NULL and the same kind of value. Skips, saying why, without PostgreSQL binaries.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openState } from '../../src/accounts/state-db.ts';
import { openPostgresStore } from '../../src/state/postgres-store.ts';
import { PostgresRateLimits } from '../../src/accounts/postgres-rate-limits.ts';
import { RATE_LIMITS } from '../../src/accounts/limits.ts';
import { MIGRATIONS } from '../../src/state/postgres-schema.ts';
import { createOrganizationPg } from '../../src/state/postgres-admin.ts';
import { dataPaths } from '../../src/cli/paths.ts';
import { redactedUrl } from '../../src/state/location.ts';

/** Tables only PostgreSQL has: the migrations applied, and the rate windows every node shares (in memory on SQLite). */
const POSTGRES_ONLY = ['juralite_schema', 'rate_windows'];

type Columns = Record<string, string[]>;

/** A column as `name kind [not null]`, its kind in words both engines share. */
const column = (name: string, kind: string, notNull: boolean) => `${name} ${kind}${notNull ? ' not null' : ''}`;

function kindOf(type: string): string {
  if (/^(INTEGER|bigint|integer)$/iu.test(type)) return 'integer';
  if (/^(TEXT|text)$/iu.test(type)) return 'text';
  if (/^(BLOB|bytea)$/iu.test(type)) return 'bytes';
  return `unmatched type ${type}`;
}

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

test('a state of the first schema is migrated on open: its fixed rate windows become sliding minutes, the unread ledger index goes', { skip: POSTGRES_MISSING }, async () => {
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
    const { rows: indexes } = await store.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'ledger' ORDER BY 1");
    assert.deepEqual(indexes.map((row) => row.indexname), ['ledger_one_allotment', 'ledger_pkey'], 'as on SQLite: no index over every row by month');
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

function sqliteColumns(): Columns {
  const dir = mkdtempSync(join(tmpdir(), 'juralite-schema-'));
  const db = openState(join(dir, 'state.db'));
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    return Object.fromEntries(tables.map((table) => [table,
      (db.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number }[])
        // A primary key column is never null on PostgreSQL; SQLite says so only for INTEGER PRIMARY KEY, yet ours are never null.
        .map((info) => column(info.name, kindOf(info.type), info.notnull === 1 || info.pk > 0))]));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresColumns(): Promise<Columns> {
  const store = await openPostgresStore(await postgres.newDatabase());
  try {
    const { rows } = await store.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`);
    const columns: Columns = {};
    for (const row of rows) (columns[row.table_name] ??= []).push(column(row.column_name, kindOf(row.data_type), row.is_nullable === 'NO'));
    return columns;
  } finally {
    await store.close();
  }
}

test('schema/state.sql and the PostgreSQL migrations make the same tables and columns', { skip: POSTGRES_MISSING }, async () => {
  const onSqlite = sqliteColumns();
  const onPostgres = await postgresColumns();
  for (const table of POSTGRES_ONLY) {
    assert.ok(onPostgres[table], `${table} is on PostgreSQL`);
    delete onPostgres[table];
  }
  assert.deepEqual(Object.keys(onPostgres).sort(), Object.keys(onSqlite).sort(), 'the same tables');
  for (const table of Object.keys(onSqlite)) assert.deepEqual(onPostgres[table], onSqlite[table], `the columns of ${table}`);
});
