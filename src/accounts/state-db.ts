import { readFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

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
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(schema);
  return db;
}

/**
 * Runs `work` in an IMMEDIATE transaction: the write lock is taken first, so a read-then-write (balance check, then
 * charge) cannot interleave with another writer.
 */
export function inWriteTransaction<T>(db: StateDb, work: () => T): T {
  return db.transaction(work).immediate();
}
