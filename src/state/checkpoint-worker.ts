// The state's checkpoint thread (src/state/wal-checkpoints.ts): its own connection to the state file; every `everyMs`
// it copies what the write-ahead log holds into the database file (a PASSIVE checkpoint: it never waits for or blocks
// a writer or a reader, and does what it can), so the fsyncs happen here and not inside a charged call's commit.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const { path, everyMs } = workerData as { path: string; everyMs: number };
const db = new Database(path, { fileMustExist: true });
db.pragma('busy_timeout = 100');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or briefly unwritable: the next round tries again, and the commits' own checkpoint remains the fallback.
  }
}, everyMs);

parentPort!.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
parentPort!.postMessage('ready');
