/**
 * The two engines' schemas cannot drift: the tables and columns schema/state.sql makes on SQLite (read from SQLite's
 * own catalog, pragma table_info) are those the PostgreSQL migrations make (information_schema.columns), in the same
 * order, with the same NOT NULL and the same kind of value. PostgreSQL's own tables (the applied migrations, the
 * shared rate windows) are the only difference. Skips, saying why, without PostgreSQL binaries.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { openState } from '../../src/accounts/state-db.ts';
import { openPostgresStore } from '../../src/state/postgres-store.ts';

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
const dir = mkdtempSync(join(tmpdir(), 'juralite-schema-'));
before(async () => { if (!POSTGRES_MISSING) postgres = await startPostgres(); });
after(async () => {
  await postgres?.close();
  rmSync(dir, { recursive: true, force: true });
});

function sqliteColumns(): Columns {
  const db = openState(join(dir, 'state.db'));
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    return Object.fromEntries(tables.map((table) => [table,
      (db.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number }[])
        // A primary key column is never null on PostgreSQL; SQLite says so only for INTEGER PRIMARY KEY, yet ours are never null.
        .map((info) => column(info.name, kindOf(info.type), info.notnull === 1 || info.pk > 0))]));
  } finally {
    db.close();
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
