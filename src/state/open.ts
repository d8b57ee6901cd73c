// Where the state lives: a SQLite file (the default) or a PostgreSQL URL (--state postgres://..., JURALITE_STATE_URL).
import { isPostgresUrl } from './location.ts';
import { SqliteStore } from './sqlite-store.ts';
import type { RateLimiter, StateStore } from './store.ts';

/**
 * Opens the state at `location` with the rate limiter that fits it: in memory for a SQLite file (one process), in
 * the database for PostgreSQL (shared by every node). PostgreSQL's schema is created or migrated here.
 *
 * @example const { store, rates } = await openStateStore(process.env.JURALITE_STATE_URL ?? 'data/state.db');
 */
export async function openStateStore(location: string): Promise<{ store: StateStore; rates?: RateLimiter }> {
  if (!isPostgresUrl(location)) return { store: new SqliteStore(location) };
  // Loaded only here: a SQLite set-up never loads the PostgreSQL client.
  const [{ openPostgresStore }, { PostgresRateLimits }] = await Promise.all([
    import('./postgres-store.ts'), import('../accounts/postgres-rate-limits.ts')]);
  const store = await openPostgresStore(location);
  return { store, rates: new PostgresRateLimits(store.query) };
}
