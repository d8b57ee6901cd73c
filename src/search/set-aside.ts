// A path of the search set aside on one connection for a while: benchmarks time a shortcut (the top-k path, the bit
// index) beside what it stands in for, on one connection and page cache, and a test checks what lies underneath.
import type Database from 'better-sqlite3';

export interface SetAside {
  /** Whether the path is set aside on this connection now. */
  has(db: Database.Database): boolean;
  /** Runs `work` with the path set aside on this connection. */
  during<T>(db: Database.Database, work: () => Promise<T>): Promise<T>;
}

/** A switch of its own for one path. */
export function setAsideSwitch(): SetAside {
  const connections = new WeakSet<Database.Database>();
  return {
    has: (db) => connections.has(db),
    async during(db, work) {
      connections.add(db);
      try {
        return await work();
      } finally {
        connections.delete(db);
      }
    },
  };
}
