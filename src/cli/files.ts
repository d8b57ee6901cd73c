// The files a command line names, checked before they are opened: what is wrong is said in plain words with the path,
// where SQLite and the file system would name neither ("file is not a database", "EISDIR: illegal operation").
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

type Kind = 'missing' | 'file' | 'directory';

function kindOf(path: string): Kind {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return 'missing';
    throw plainFileError(error, path);
  }
}

/** A directory that may still be made, but is not a file. */
export function requireNoFileAt(path: string, label: string): void {
  if (kindOf(path) === 'file') throw new Error(`${label} ${path} is a file, not a directory`);
}

/** The directory a new file goes into must already exist: a mistyped path makes nothing. */
export function requireDirectoryOf(path: string, what: string): void {
  const directory = dirname(path);
  const kind = kindOf(directory);
  if (kind === 'missing') throw new Error(`the ${what}'s directory ${directory} does not exist`);
  if (kind === 'file') throw new Error(`the ${what}'s directory ${directory} is a file, not a directory`);
}

/** Every SQLite database starts with these 16 bytes; an empty file is a new database. */
const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * A database path that, if it exists, holds an SQLite database: not a directory, not a file of another kind. `what`
 * is the kind of database, with its article ("a juralite corpus").
 */
export function requireDatabaseOrNothing(path: string, what: string): void {
  const kind = kindOf(path);
  if (kind === 'missing') return;
  if (kind === 'directory') throw new Error(`${path} is a directory, not ${what}`);
  const header = Buffer.alloc(SQLITE_HEADER.length);
  let read = 0;
  try {
    const descriptor = openSync(path, 'r');
    try {
      read = readSync(descriptor, header, 0, header.length, 0);
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    throw plainFileError(error, path);
  }
  if (read > 0 && header.toString('latin1', 0, read) !== SQLITE_HEADER) {
    throw new Error(`${path} is not ${what} (SQLite: file is not a database)`);
  }
}

/** The state database of a command that serves from it (mcp, backup): it must exist, or the path is mistyped. */
export function requireStateDatabase(path: string): void {
  if (kindOf(path) === 'missing') {
    throw new Error(`no state database at ${path} (a mistyped --data or --state? juralite serve creates it on first start)`);
  }
  requireDatabaseOrNothing(path, 'a juralite state database');
}

const PLAIN_WORDS = new Map([
  ['ENOENT', 'does not exist'],
  ['EISDIR', 'is a directory, not a file'],
  ['ENOTDIR', 'is not reachable: a part of the path is a file, not a directory'],
  ['EEXIST', 'is in the way: a file where a directory should be'],
  ['EACCES', 'is not accessible (permission denied)'],
  ['EPERM', 'is not accessible (operation not permitted)'],
  ['EROFS', 'is on a read-only file system'],
  ['ENOSPC', 'cannot be written: the disk is full'],
]);

/**
 * A file system error as a sentence naming `path` (which may say where it came from: `--file x.md`); an error without
 * a known code keeps its message.
 */
export function plainFileError(error: unknown, path: string): Error {
  const words = PLAIN_WORDS.get((error as NodeJS.ErrnoException).code ?? '');
  if (words) return new Error(`${path} ${words}`);
  return error instanceof Error ? error : new Error(String(error));
}
