// Checkpoints of the SQLite state off the request path. SQLite checkpoints a WAL database inside the commit that
// takes its log past `wal_autocheckpoint` pages (1000): with three pages a charge, every ~330th charged call copied
// some 4 MB into the database file and waited for two fsyncs, 10 to 100 ms on a busy machine (bench/README, Session
// 19). A server hands that to a thread of its own (src/state/checkpoint-worker.ts) and raises its commits' threshold
// tenfold, which stays as the fallback should the thread stall or fail.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { StateDb } from '../accounts/state-db.ts';
import { IS_EXECUTABLE } from '../runtime/executable.ts';

/** How often the thread checkpoints. */
export const CHECKPOINT_EVERY_MS = 1000;
/** The commits' own threshold (pages) while the thread checkpoints: ten times SQLite's default. */
export const FALLBACK_AUTOCHECKPOINT = 10_000;
/** SQLite's default threshold, restored when the thread stops. */
const DEFAULT_AUTOCHECKPOINT = 1000;

/** A running checkpoint thread; `stop` ends it (the commits checkpoint as SQLite does by default again). */
export interface WalCheckpoints { stop(): Promise<void> }

/**
 * Starts checkpointing `db` (a state file in WAL mode) in a thread; null where there is no file, no second core, no
 * way to start a thread from the sources (the standalone executable) or the file is locked exclusively: the commits
 * then checkpoint as before.
 *
 * @example const checkpoints = startWalCheckpoints(store.db); ...; await checkpoints?.stop();
 */
export function startWalCheckpoints(db: StateDb, everyMs = CHECKPOINT_EVERY_MS, cores = availableParallelism()): WalCheckpoints | null {
  if (IS_EXECUTABLE || cores < 2 || db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal') return null;
  // Opened in exclusive locking mode (no room for the shared-memory file: src/accounts/state-db.ts), no other
  // connection can read it: the commits checkpoint themselves.
  if (db.pragma('locking_mode', { simple: true }) === 'exclusive') return null;
  const worker = new Worker(new URL('./checkpoint-worker.ts', import.meta.url), { workerData: { path: db.name, everyMs } });
  const fallback = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
  };
  worker.on('error', (error) => {
    console.error('juralite: the state\'s checkpoint thread failed; commits checkpoint themselves again:', error);
  });
  worker.on('exit', fallback);
  // The thread never keeps a process alive.
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT}`);
  return {
    async stop() {
      const exited = new Promise((done) => worker.once('exit', done));
      worker.postMessage('stop');
      await exited;
    },
  };
}
