// Answers of the search operations kept for the same arguments (a user paging back, the same query from several
// clients, an agent asking again), per corpus connection and bounded. An answer is only kept for the state of the
// corpus it was read from: any commit to the file (juralite sync or import writing the served corpus, through another
// connection: SQLite's data_version; a write on this connection: total_changes) empties the cache, and a reopened
// corpus (SIGHUP) is a new connection with a cache of its own.
import type Database from 'better-sqlite3';
import { corpusVersion } from '../db/corpus-version.ts';

/** Answers kept per connection (each some 10 to 60 KB: up to about 15 MB). */
export const ANSWER_CACHE_SIZE = 256;

interface Cache { version: string; answers: Map<string, object> }
const caches = new WeakMap<Database.Database, Cache>();

/**
 * Freezes an answer deeply: one that is handed out again must never be changed by whoever got it first (and the HTTP
 * edge writes a frozen result from the JSON bytes it keeps beside it: src/http/responses.ts writeAnswer).
 */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) frozen(item);
    Object.freeze(value);
  }
  return value;
}

/**
 * The key of an operation's arguments: their values by name in sorted order, arguments left out omitted (the
 * operations normalize a left-out mode before they search, so it is the mode written out).
 */
export function answerKey(operation: string, args: object): string {
  const entries = Object.entries(args).filter(([, value]) => value !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
  return `${operation}:${JSON.stringify(entries)}`;
}

/** The kept answer for `key` in the corpus's current state, or undefined (the oldest-used answers go first). */
export function cachedAnswer<T extends object>(db: Database.Database, key: string): T | undefined {
  const cache = caches.get(db);
  if (!cache) return undefined;
  if (cache.version !== corpusVersion(db)) {
    caches.delete(db);
    return undefined;
  }
  const answer = cache.answers.get(key);
  if (answer) {
    cache.answers.delete(key);
    cache.answers.set(key, answer);
  }
  return answer as T | undefined;
}

/**
 * Keeps `answer` for `key`; call inside the read transaction the answer was read in, so that the version recorded is
 * the state it was read from. Returns the answer, frozen.
 */
export function keepAnswer<T extends object>(db: Database.Database, key: string, answer: T): T {
  const version = corpusVersion(db);
  let cache = caches.get(db);
  if (!cache || cache.version !== version) caches.set(db, cache = { version, answers: new Map() });
  cache.answers.set(key, frozen(answer));
  if (cache.answers.size > ANSWER_CACHE_SIZE) cache.answers.delete(cache.answers.keys().next().value!);
  return answer;
}

/** How many answers a connection keeps now (tests, benchmarks). */
export function cachedAnswers(db: Database.Database): number {
  return caches.get(db)?.answers.size ?? 0;
}

/** Forgets every kept answer of a connection (benchmarks measure the search itself with it). */
export function clearAnswers(db: Database.Database): void {
  caches.delete(db);
}
