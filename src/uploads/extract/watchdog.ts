// The extraction process's own guard: a small thread beside the extraction that watches the process from outside
// its event loop (pdf.js inflating a stream blocks that loop for as long as the stream lasts). It ends the process
// when the process's resident memory passes the cap (a heap limit misses the buffers a PDF inflates into), when a
// task spends more CPU time than its file may cost (src/uploads/extract/cpu-budget.ts), when a task runs past its own
// time limit, or when the server that started the process is gone. Each end is a signal the
// pool can tell apart (src/uploads/pool.ts).
import { Worker } from 'node:worker_threads';

/** The signal for "resident memory above the cap": a signal nothing else in an extraction process sends. */
export const MEMORY_SIGNAL = 'SIGUSR2';
/** The signal for "a task ran past its time limit" (the process's own limit, a backstop to the pool's). */
export const TIME_SIGNAL = 'SIGXCPU';
/** The signal for "a task spent more CPU time than its budget" (SIGPROF, its kin, is the profilers'). */
export const CPU_SIGNAL = 'SIGVTALRM';

export interface WatchdogLimits {
  /** Resident memory of the whole process, in bytes. */
  maxResidentBytes: number;
  /** Longest a task may run, in ms. */
  maxTaskMs: number;
}

/** How often the thread looks: at the fastest inflation measured (~1 GB/s) 20 ms let the process grow ~20 MB. */
const POLL_MS = 20;

// The thread's code, evaluated (no file of its own, so that the standalone executable needs none either). The shared
// cells hold the running task's start in ms since the epoch (0 while idle), the process's CPU time then (in ms;
// process.cpuUsage is the whole process's in any thread) and the task's CPU budget (0: none).
const THREAD = `
const { workerData } = require('node:worker_threads');
const { limits, parent, pollMs, memorySignal, timeSignal, cpuSignal } = workerData;
const [started, cpuStart, cpuBudget] = [0, 1, 2];
const cells = new Float64Array(workerData.cells);
const end = (signal) => process.kill(process.pid, signal);
const cpuMs = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
setInterval(() => {
  // The server is gone (kill -9 too): the process is nobody's any more, it ends at once.
  if (process.ppid !== parent) end('SIGKILL');
  else if (process.memoryUsage.rss() > limits.maxResidentBytes) end(memorySignal);
  else if (cells[started] && cells[cpuBudget] && cpuMs() - cells[cpuStart] > cells[cpuBudget]) end(cpuSignal);
  else if (cells[started] && Date.now() - cells[started] > limits.maxTaskMs) end(timeSignal);
}, pollMs);
`;

let cells: Float64Array | undefined;

/**
 * Starts the guard once per process (the limits of the first task stand) and marks a task as running until the
 * returned function is called; `cpuBudgetMs` is this task's budget of CPU time (0: none).
 *
 * @example const done = watchTask(limits, cpuBudgetMs(size)); try { ... } finally { done(); }
 */
export function watchTask(limits: WatchdogLimits, cpuBudgetMs = 0): () => void {
  if (!cells) {
    const shared = new SharedArrayBuffer(3 * 8);
    cells = new Float64Array(shared);
    const thread = new Worker(THREAD, {
      eval: true,
      workerData: { limits, parent: process.ppid, pollMs: POLL_MS, memorySignal: MEMORY_SIGNAL, timeSignal: TIME_SIGNAL,
        cpuSignal: CPU_SIGNAL, cells: shared },
      // The guard's own heap stays small; it holds nothing.
      resourceLimits: { maxOldGenerationSizeMb: 16 },
    });
    thread.unref();
  }
  const used = process.cpuUsage();
  // The start last: the thread reads a task's cells only once it is set.
  cells[1] = (used.user + used.system) / 1000;
  cells[2] = cpuBudgetMs;
  cells[0] = Date.now();
  return () => { cells![0] = 0; };
}
