// Prepared statements cached per connection: importers run the same few statements hundreds of thousands of times,
// and preparing them anew each time costs CPU and leaves native memory waiting for the garbage collector.
import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** The prepared statement for `sql` on `db`, prepared once. */
export function stmt(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let s = cache.get(sql);
  if (!s) {
    s = db.prepare(sql);
    cache.set(sql, s);
  }
  return s;
}
