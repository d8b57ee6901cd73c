// The extraction process's own guard: a small thread beside the extraction that watches the process from outside
// its event loop (pdf.js inflating a stream blocks that loop for as long as the stream lasts). It ends the process
// when the process's resident memory passes the cap (a heap limit misses the buffers a PDF inflates into), when a
// task runs past its own time limit, or when the server that started the process is gone. Each end is a signal the
// pool can tell apart (src/uploads/pool.ts).
import { Worker } from 'node:worker_threads';

/** The signal for "resident memory above the cap": a signal nothing else in an extraction process sends. */
export const MEMORY_SIGNAL = 'SIGUSR2';
/** The signal for "a task ran past its time limit" (the process's own limit, a backstop to the pool's). */
export const TIME_SIGNAL = 'SIGXCPU';

export interface WatchdogLimits {
  /** Resident memory of the whole process, in bytes. */
  maxResidentBytes: number;
  /** Longest a task may run, in ms. */
  maxTaskMs: number;
}

/** How often the thread looks: at the fastest inflation measured (~1 GB/s) 20 ms let the process grow ~20 MB. */
const POLL_MS = 20;

// The thread's code, evaluated (no file of its own, so that the standalone executable needs none either). The shared
// cell holds the start of the running task in ms since the epoch, 0 while idle.
const THREAD = `
const { workerData } = require('node:worker_threads');
const { limits, parent, pollMs, memorySignal, timeSignal } = workerData;
const started = new Float64Array(workerData.started);
const end = (signal) => process.kill(process.pid, signal);
setInterval(() => {
  // The server is gone (kill -9 too): the process is nobody's any more, it ends at once.
  if (process.ppid !== parent) end('SIGKILL');
  else if (process.memoryUsage.rss() > limits.maxResidentBytes) end(memorySignal);
  else if (started[0] && Date.now() - started[0] > limits.maxTaskMs) end(timeSignal);
}, pollMs);
`;

let cell: Float64Array | undefined;

/**
 * Starts the guard once per process (the limits of the first task stand) and marks a task as running until the
 * returned function is called.
 *
 * @example const done = watchTask(limits); try { ... } finally { done(); }
 */
export function watchTask(limits: WatchdogLimits): () => void {
  if (!cell) {
    const started = new SharedArrayBuffer(8);
    cell = new Float64Array(started);
    const thread = new Worker(THREAD, {
      eval: true,
      workerData: { limits, parent: process.ppid, pollMs: POLL_MS, memorySignal: MEMORY_SIGNAL, timeSignal: TIME_SIGNAL, started },
      // The guard's own heap stays small; it holds nothing.
      resourceLimits: { maxOldGenerationSizeMb: 16 },
    });
    thread.unref();
  }
  cell[0] = Date.now();
  return () => { cell![0] = 0; };
}
