import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { betterSqliteBinding } from '../runtime/executable.ts';
import { createPrivately } from '../runtime/private-file.ts';
import { inImmediateTransaction } from '../db/statements.ts';

export type StateDb = Database.Database;

const schema = readFileSync(new URL('../../schema/state.sql', import.meta.url), 'utf8');

/**
 * Opens (and creates) the state database. Pragmas in one place:
 * - busy_timeout first, so a second process (the CLI beside a running server) waits instead of failing;
 * - WAL, so readers never block the writer; synchronous NORMAL is durable across process crashes in WAL mode;
 * - foreign keys on.
 *
 * @example const state = openState('data/state.db');
 */
export function openState(path: string): StateDb {
  createPrivately(path);
  try {
    return configured(new Database(path, { nativeBinding: betterSqliteBinding() }), false);
  } catch (error) {
    if (!NO_ROOM_FOR_SHARED_MEMORY.has((error as { code?: string }).code ?? '')) throw error;
    console.warn(`juralite: ${path}: no room for the shared-memory file (${(error as Error).message}; disk full?); `
      + 'the state database is opened in exclusive mode: other juralite commands wait until the server is restarted');
    return configured(new Database(path, { nativeBinding: betterSqliteBinding() }), true);
  }
}

/**
 * What SQLite answers when WAL's shared-memory file (state.db-shm, 32 KB) cannot be made: a full disk, after a clean
 * stop removed it. In exclusive locking mode SQLite keeps that index in the process's own memory instead.
 */
const NO_ROOM_FOR_SHARED_MEMORY = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'SQLITE_IOERR_SHMOPEN', 'SQLITE_IOERR_SHMMAP']);

function configured(db: StateDb, exclusive: boolean): StateDb {
  try {
    return withPragmasAndSchema(db, exclusive);
  } catch (error) {
    db.close();
    throw error;
  }
}

function withPragmasAndSchema(db: StateDb, exclusive: boolean): StateDb {
  db.pragma('busy_timeout = 5000');
  // Before the first access in WAL mode, or SQLite already wants the shared-memory file.
  if (exclusive) db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  if (schemaIncomplete(db)) db.exec(schema);
  deriveLedgerSums(db);
  return db;
}

/** What schema/state.sql creates, by name, and the version it sets. */
const SCHEMA_OBJECTS = [...schema.matchAll(/CREATE (?:UNIQUE )?(?:TABLE|INDEX|TRIGGER) IF NOT EXISTS (\w+)/g)].map((match) => match[1]);
const SCHEMA_VERSION = Number(/PRAGMA user_version = (\d+)/.exec(schema)![1]);

/**
 * True unless the file already holds all of the schema. Running it anyway would write (its `PRAGMA user_version`
 * does), and a server restarted on a full disk must still open its state to serve what needs no writing.
 */
function schemaIncomplete(db: StateDb): boolean {
  if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) return true;
  const present = new Set(db.prepare('SELECT name FROM sqlite_schema').pluck().all() as string[]);
  return SCHEMA_OBJECTS.some((name) => !present.has(name));
}

/** A state file written before ledger_sums existed: the sums are derived from the ledger once, in one transaction. */
function deriveLedgerSums(db: StateDb): void {
  const missing = !db.prepare('SELECT 1 FROM ledger_sums LIMIT 1').get() && db.prepare('SELECT 1 FROM ledger LIMIT 1').get();
  if (!missing) return;
  db.transaction(() => db.exec(`
    INSERT INTO ledger_sums (organization_id, month, monthly, allotted)
      SELECT organization_id, month, sum(monthly_delta), count(*) FILTER (WHERE kind = 'allotment') FROM ledger GROUP BY 1, 2;
    INSERT INTO ledger_sums (organization_id, month, bonus)
      SELECT organization_id, '', sum(bonus_delta) FROM ledger GROUP BY 1;`)).immediate();
}

/**
 * Runs `work` in an IMMEDIATE transaction: the write lock is taken first, so a read-then-write (balance check, then
 * charge) cannot interleave with another writer.
 */
export function inWriteTransaction<T>(db: StateDb, work: () => T): T {
  return inImmediateTransaction(db, work);
}
