// `juralite backup DEST`: a consistent copy of the state, taken while the server runs.
import { execFile } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { betterSqliteBinding } from '../runtime/executable.ts';
import { isPostgresUrl, redactedUrl } from '../state/location.ts';
import { requireDirectoryOf, requireStateDatabase } from './files.ts';

/**
 * Writes the state to `destination`, a new file (0600: a backup holds client text). A SQLite state is copied with
 * `VACUUM INTO`: one read transaction, so the copy is the state of one moment even while the server writes (WAL lets
 * both go on), compacted, and a single file without -wal (copying state.db with cp is not safe: committed pages may
 * still sit in state.db-wal). A PostgreSQL state is dumped by PostgreSQL's own `pg_dump` (its custom format, one
 * snapshot; restore with `pg_restore`), refused clearly where pg_dump is not installed.
 */
export async function backupCommand(stateLocation: string, destination: string): Promise<{ backup: string; bytes: number }> {
  if (!isPostgresUrl(stateLocation)) requireStateDatabase(stateLocation);
  const target = resolve(destination);
  if (existsSync(target)) throw new Error(`${target} exists; a backup never overwrites a file`);
  requireDirectoryOf(target, 'backup');
  const pgDump = isPostgresUrl(stateLocation) ? findPgDump() : undefined;
  // Made empty with mode 0600 first (VACUUM INTO fills an empty file; pg_dump writes into it and keeps its mode).
  closeSync(openSync(target, 'wx', 0o600));
  try {
    if (pgDump) await dumpPostgres(pgDump, stateLocation, target);
    else copySqlite(stateLocation, target);
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  }
  return { backup: target, bytes: statSync(target).size };
}

function copySqlite(statePath: string, target: string): void {
  const db = new Database(statePath, { readonly: true, fileMustExist: true, nativeBinding: betterSqliteBinding() });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
}

/**
 * pg_dump on `searchPath`, else the newest of Debian's `debianRoot/N/bin`; a clear refusal where there is none.
 *
 * @example findPgDump() // '/usr/bin/pg_dump'
 */
export function findPgDump(searchPath = process.env.PATH ?? '', debianRoot = '/usr/lib/postgresql'): string {
  const onPath = searchPath.split(delimiter).filter(Boolean).map((dir) => join(dir, 'pg_dump'));
  const debian = existsSync(debianRoot)
    ? readdirSync(debianRoot).filter((name) => /^\d+$/u.test(name)).sort((a, b) => Number(b) - Number(a))
      .map((version) => join(debianRoot, version, 'bin', 'pg_dump'))
    : [];
  const found = [...onPath, ...debian].find((path) => existsSync(path));
  if (!found) {
    throw new Error('the state is on PostgreSQL, and a backup of it is made by pg_dump, which is not installed here '
      + '(apt-get install postgresql-client, of the server\'s major version or newer); or back it up on the database server');
  }
  return found;
}

/** pg_dump in its custom format; the URL's password goes to pg_dump in PGPASSWORD, never on its command line. */
async function dumpPostgres(pgDump: string, url: string, target: string): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env = password ? { ...process.env, PGPASSWORD: password } : process.env;
  try {
    await promisify(execFile)(pgDump, ['--format=custom', '--no-owner', '--file', target, '--dbname', parsed.toString()],
      { env, timeout: 6 * 3600_000, maxBuffer: 1 << 20 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim().split('\n').pop() ?? '';
    throw new Error(`pg_dump of ${redactedUrl(url)} failed: ${stderr.replace(/^pg_dump: (error: )?/u, '') || (error as Error).message}`);
  }
}
