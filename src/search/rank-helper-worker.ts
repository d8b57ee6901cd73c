// The rank helper's thread (src/search/rank-helper.ts): its own read-only connection to the corpus; for each job, in
// one read transaction, the upper half of a ranking when the index is in the caller's state, written to shared
// memory. Anything else (another state, an error) is refused: the caller then ranks the half itself and meets any
// error there, where it is answered. The thread does nothing else, so it sleeps in Atomics.wait between jobs (woken
// at once by the caller's notify) rather than in an event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { openCorpus } from '../corpus/open.ts';
import { HELPER_POOL, helperMemory, HelperState, indexFingerprint, readJob, type HelperJob } from './rank-helper.ts';
import { ALL_ROWS, rankRange } from './rank-range.ts';

const { path, buffer } = workerData as { path: string; buffer: SharedArrayBuffer };
const memory = helperMemory(buffer);
const { state, numbers } = memory;
const db = openCorpus(path, { readonly: true });

function rankUpperHalf(job: HelperJob): number {
  if (indexFingerprint(db).toString('base64') !== job.fingerprint) return HelperState.Refused;
  const ranking = rankRange(db, job.expression, job, [job.from, ALL_ROWS[1]], job.pool);
  numbers[0] = ranking.matches;
  numbers[1] = ranking.docIds.length;
  numbers.set(ranking.docIds, 2);
  numbers.set(ranking.scores, 2 + HELPER_POOL);
  return HelperState.Done;
}

function rankJob(): number {
  try {
    return db.transaction(rankUpperHalf)(readJob(memory));
  } catch {
    return HelperState.Refused;
  }
}

parentPort!.postMessage('ready');
for (;;) {
  let current: number;
  while ((current = Atomics.load(state, 0)) !== HelperState.Pending) Atomics.wait(state, 0, current);
  Atomics.store(state, 0, rankJob());
  Atomics.notify(state, 0);
}
