import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Makes a database file its own user's alone before SQLite opens it: the missing directories 0700, the file 0600
 * (SQLite gives -wal and -shm the database file's mode). A file that exists keeps its mode; ':memory:' is no file.
 */
export function createPrivately(path: string): void {
  if (path === ':memory:' || path === '') return;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}
