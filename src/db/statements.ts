import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement for `sql` on `db`, compiled once and reused: preparing costs more than running most of our
 * queries. Statements live as long as their connection.
 *
 * Write a parameter the planner could read as `+?` (`+@name`): in WHERE against a column, in LIMIT and OFFSET.
 * better-sqlite3 clears a statement's bindings after each run, and SQLite recompiles at its next run any statement
 * whose plan looked at a bound value (a `?` compared to a column in a join, `LIMIT ?`, ...), whatever the value: as
 * long as compiling the statement again. `+?` is the same value with the same plan (EXPLAIN QUERY PLAN), but not one
 * the planner reads (bench/README.md, "Session 23: statements SQLite re-prepares on every call").
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

type Runner = Database.Transaction<(work: () => unknown) => unknown>;
const runners = new WeakMap<Database.Database, Runner>();

/** One transaction function per connection, running the work it is given (better-sqlite3 builds one per call). */
function runnerOf(db: Database.Database): Runner {
  let runner = runners.get(db);
  if (!runner) runners.set(db, (runner = db.transaction((work: () => unknown) => work())));
  return runner;
}

/**
 * Runs `work` in one deferred transaction: several reads see one state of the file (a writer may commit between two
 * statements otherwise), and SQLite takes its file locks once instead of once per statement. Nested: a savepoint.
 *
 * @example const row = inTransaction(corpus, () => readDecision(corpus, findDecision(corpus, id), request));
 */
export function inTransaction<T>(db: Database.Database, work: () => T): T {
  return runnerOf(db)(work) as T;
}

/** Runs `work` in one IMMEDIATE transaction: the write lock taken first (see inWriteTransaction, state-db.ts). */
export function inImmediateTransaction<T>(db: Database.Database, work: () => T): T {
  return runnerOf(db).immediate(work) as T;
}
