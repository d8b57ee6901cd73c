// What a connection has read from the corpus file and may read again while the file is unchanged: decoded impact
// lists (impact-lists.ts), compound lookups (query.ts) and the like, kept per connection within a bound of bytes per
// store (keptRead's; the norm arm has its own).
import type Database from 'better-sqlite3';
import { corpusVersion } from '../db/corpus-version.ts';

/**
 * Bytes kept per connection (impact-lists.ts: decoded lists, deeper rows, row sets; query.ts: compound lookups): a
 * blob read is copied into fresh memory, and on the development machine a first touch of a fresh page costs 10-18 µs
 * (the deeper rows and sets of one keyword query at 500k decisions: some 1 MB, 420 page faults, 11-23 ms read;
 * bench/README "Session 21").
 */
export const KEPT_BYTES = 64 * 1024 * 1024;

/** What a connection keeps, valid while no connection has written the file (SQLite's data_version, its own changes). */
interface Kept { version: string; bytes: number; entries: Map<string, { value: unknown; bytes: number }> }

/** A keep of reads per connection within `maxBytes` (keptRead's own; the norm arm's apart, so neither evicts the other). */
export function keptStore(maxBytes: number) {
  const keptReads = new WeakMap<Database.Database, Kept>();
  /**
   * The value kept for `key` on this connection, or `read()` kept (the oldest entries go first past the bound): while
   * the file is unchanged, a read gives the same. Emptied when any connection commits (data_version) or this one
   * changes rows (total_changes); call inside the read transaction that uses it.
   */
  return function kept<T>(db: Database.Database, key: string, read: () => T, bytes: (value: T) => number): T {
    const stamp = corpusVersion(db);
    let held = keptReads.get(db);
    if (held?.version !== stamp) keptReads.set(db, (held = { version: stamp, bytes: 0, entries: new Map() }));
    const entry = held.entries.get(key);
    if (entry) {
      // Most recently used last: the oldest go first.
      held.entries.delete(key);
      held.entries.set(key, entry);
      return entry.value as T;
    }
    const value = read();
    // Charged with its key and what V8 holds around it (Map entry, objects, typed arrays' headers; a null kept for a
    // word without a list costs ~170 bytes): so many small entries stay within the bound too.
    const size = bytes(value) + 2 * key.length + 512;
    for (const [old, oldEntry] of held.entries) {
      if (held.bytes + size <= maxBytes) break;
      held.entries.delete(old);
      held.bytes -= oldEntry.bytes;
    }
    if (size <= maxBytes) {
      held.entries.set(key, { value, bytes: size });
      held.bytes += size;
    }
    return value;
  };
}

/** Reads kept per connection within KEPT_BYTES (keptStore). */
export const keptRead = keptStore(KEPT_BYTES);
