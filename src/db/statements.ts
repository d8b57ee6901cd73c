import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement for `sql` on `db`, compiled once and reused: preparing costs more than running most of our
 * queries. Statements live as long as their connection.
 *
 * @example sql<[string], { n: number }>(db, 'SELECT count(*) AS n FROM decisions WHERE court = ?').get('BGH')
 */
export function sql<Params extends unknown[] = unknown[], Row = unknown>(db: Database.Database, text: string): Database.Statement<Params, Row> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let statement = cache.get(text);
  if (!statement) cache.set(text, (statement = db.prepare(text)));
  return statement as unknown as Database.Statement<Params, Row>;
}
