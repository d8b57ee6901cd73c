// `juralite backup DEST`: a consistent copy of the state database, taken while the server runs.
import { closeSync, existsSync, openSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { betterSqliteBinding } from '../runtime/executable.ts';
import { requireDirectoryOf, requireStateDatabase } from './files.ts';

/**
 * Writes the state database to `destination` with `VACUUM INTO`: one read transaction, so the copy is the state of
 * one moment even while the server writes (WAL lets both go on), compacted, and a single file without -wal. Copying
 * state.db with cp is not safe: committed pages may still sit in state.db-wal.
 */
export function backupCommand(statePath: string, destination: string): { backup: string; bytes: number } {
  requireStateDatabase(statePath);
  const target = resolve(destination);
  if (existsSync(target)) throw new Error(`${target} exists; a backup never overwrites a file`);
  requireDirectoryOf(target, 'backup');
  // Made empty with mode 0600 first (VACUUM INTO fills an empty file): a backup holds client text.
  closeSync(openSync(target, 'wx', 0o600));
  const db = new Database(statePath, { readonly: true, fileMustExist: true, nativeBinding: betterSqliteBinding() });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(target);
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  } finally {
    db.close();
  }
  return { backup: target, bytes: statSync(target).size };
}
