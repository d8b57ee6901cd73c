import { readFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { betterSqliteBinding } from '../runtime/executable.ts';

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
  const db = new Database(path, { nativeBinding: betterSqliteBinding() });
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(schema);
  deriveLedgerSums(db);
  return db;
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
  return db.transaction(work).immediate();
}
