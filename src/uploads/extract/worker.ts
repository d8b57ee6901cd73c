// The extraction worker: the script each pool process runs (tinypool calls its default export once per task).
// Loaded by path, never imported by the server, so that a standalone executable can ship it as a file of its own
// (src/uploads/worker-path.ts resolves it).
import { stat } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { cpuBudgetMs } from './cpu-budget.ts';
import { extractDocument, type ExtractionOutcome, type ExtractionTask } from './extract-document.ts';
import { watchTask, type WatchdogLimits } from './watchdog.ts';

/**
 * Extraction yields the CPU to the server: on a small machine the worker processes share cores with the event loop,
 * and a search or a decision read must not wait behind a 50-page PDF.
 */
const BACKGROUND_PRIORITY = 10;
try {
  setPriority(BACKGROUND_PRIORITY);
} catch {
  // A platform that refuses it: extraction runs at normal priority.
}

/** The message that tells the pool which process runs its task (src/uploads/pool.ts). */
export interface TaskStarted { extractionProcess: number }

/** A task as the pool sends it: the document, and the limits the process's watchdog holds it to. */
export type PoolTask = ExtractionTask & { limits?: WatchdogLimits };

/**
 * Runs one task's work under the watchdog (memory, CPU time, time, the server's presence) and tells the pool which
 * process runs it. Exported for test workers that behave like a hostile file inside the same guard.
 *
 * @example export default (task: PoolTask) => guarded(task, () => extractDocument(task));
 */
export async function guarded<T>(task: PoolTask, work: () => Promise<T>, cpuBudget = 0): Promise<T> {
  const done = task.limits ? watchTask(task.limits, cpuBudget) : () => undefined;
  process.send?.({ extractionProcess: process.pid } satisfies TaskStarted);
  try {
    return await work();
  } finally {
    done();
  }
}

export default async function extract(task: PoolTask): Promise<ExtractionOutcome> {
  // A file that cannot be read fails in extractDocument, which says why; its budget is the base.
  const size = await stat(task.path).then((stats) => stats.size, () => 0);
  return guarded(task, () => extractDocument(task), cpuBudgetMs(size));
}
