// The extraction pool: tinypool processes (not threads) running src/uploads/extract/worker.ts. A process is the
// sandbox for hostile files: one that runs out of memory, crashes or exits takes only itself down, and one that hangs
// is killed at the time limit; tinypool starts a fresh process for the next task. The server's event loop only
// sends a path and receives at most 20,000 characters back.
import type { ChildProcess } from 'node:child_process';
import Tinypool from 'tinypool';
import type { UploadsConfig } from '../config.ts';
import type { ExtractionErrorCode, ExtractionOutcome, ExtractionTask } from './extract/extract-document.ts';
import { CPU_BUDGET_BASE_MS, CPU_BUDGET_MS_PER_KIB } from './extract/cpu-budget.ts';
import { CPU_SIGNAL, MEMORY_SIGNAL, TIME_SIGNAL, type WatchdogLimits } from './extract/watchdog.ts';
import type { TaskStarted } from './extract/worker.ts';
import { extractionWorkerEnv, extractionWorkerUrl } from './worker-path.ts';

/** The pool was closed before the task ran: it is left as it is, to be extracted on the next start. */
export class PoolClosed extends Error {}

interface Job {
  task: ExtractionTask;
  resolve(outcome: ExtractionOutcome): void;
  reject(error: unknown): void;
}

const failed = (error_detail: string, error_code: ExtractionErrorCode = 'unreadable'): ExtractionOutcome => ({
  status: 'failed', error_code, error_detail, char_count: null, page_count: null, pages_without_text_layer: null,
});

/** The process tinypool runs a task in, found by the pid the task sends when it starts (src/uploads/extract/worker.ts). */
function processOf(pool: Tinypool, message: unknown): ChildProcess | undefined {
  const pid = (message as Partial<TaskStarted> | null)?.extractionProcess;
  const worker = pool.threads.find((thread) => thread.threadId === pid) as { process?: ChildProcess } | undefined;
  return worker?.process;
}

export class ExtractionPool {
  readonly #pool: Tinypool;
  readonly #size: number;
  readonly #timeoutMs: number;
  readonly #limits: WatchdogLimits;
  /** Waiting jobs per owner (an organization), owners in turn: one organization's many large files cannot hold every
   * other organization's upload back for longer than one task (the Map's order is the turn). */
  readonly #queues = new Map<string, Job[]>();
  readonly #running = new Set<AbortController>();
  #closed = false;

  constructor(config: UploadsConfig) {
    this.#size = config.workers;
    this.#timeoutMs = config.timeoutMs;
    // The whole process, heap and buffers, within the memory setting; the process's own time limit a little after
    // the pool's (it matters only when the pool's timer cannot act: the server is busy or gone).
    this.#limits = { maxResidentBytes: config.workerMemoryMb * 2 ** 20, maxTaskMs: config.timeoutMs + 5_000 };
    this.#pool = new Tinypool({
      filename: extractionWorkerUrl(config),
      runtime: 'child_process',
      minThreads: 0,
      maxThreads: config.workers,
      // Idle processes end after a minute: a server without uploads holds none.
      idleTimeout: 60_000,
      // Set, not inherited: the server's own flags (a test runner's, say) are no business of the worker.
      execArgv: [`--max-old-space-size=${config.workerMemoryMb}`],
      // The standalone executable reads no flags from its arguments: there the cap travels in NODE_OPTIONS.
      env: extractionWorkerEnv(config),
    });
  }

  /**
   * The text of one document, or why not. A crash, an exit or the time limit give a failed outcome (`unreadable`),
   * the memory cap `resource_limit`, the CPU budget `too_complex`;
   * the time limit counts from the moment the task runs, not while it waits for a free process.
   */
  run(task: ExtractionTask, owner: string): Promise<ExtractionOutcome> {
    if (this.#closed) return Promise.reject(new PoolClosed());
    return new Promise((resolve, reject) => {
      const queue = this.#queues.get(owner);
      if (queue) queue.push({ task, resolve, reject });
      else this.#queues.set(owner, [{ task, resolve, reject }]);
      this.#next();
    });
  }

  /** Starts waiting jobs while processes are free: the next owner's oldest job, that owner then last in turn. */
  #next(): void {
    while (!this.#closed && this.#running.size < this.#size && this.#queues.size) {
      const [owner, queue] = this.#queues.entries().next().value!;
      this.#queues.delete(owner);
      const job = queue.shift()!;
      if (queue.length) this.#queues.set(owner, queue);
      this.#start(job);
    }
  }

  async #start(job: Job): Promise<void> {
    const controller = new AbortController();
    this.#running.add(controller);
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, this.#timeoutMs);
    let child: ChildProcess | undefined;
    const channel = { onMessage: () => undefined, postMessage: (message: unknown) => { child ??= processOf(this.#pool, message); } };
    try {
      job.resolve(await this.#pool.run({ ...job.task, limits: this.#limits }, { signal: controller.signal, channel }));
    } catch (error) {
      if (this.#closed) job.reject(new PoolClosed());
      else if (timedOut || child?.signalCode === TIME_SIGNAL) job.resolve(failed(`the extraction did not finish within ${this.#timeoutMs / 1000} s and was stopped`));
      else if (child?.signalCode === MEMORY_SIGNAL) {
        job.resolve(failed(`the document needs more than the ${this.#limits.maxResidentBytes / 2 ** 20} MB of memory extraction may take `
          + '(a stream that inflates beyond it?); the extraction was stopped', 'resource_limit'));
      } else if (child?.signalCode === CPU_SIGNAL) {
        job.resolve(failed(`reading the document took more computing than a file of its size may take (${CPU_BUDGET_BASE_MS / 1000} s `
          + `of CPU time and ${CPU_BUDGET_MS_PER_KIB} ms per KB; a page of hundreds of thousands of operators?); the extraction was stopped`,
        'too_complex'));
      } else job.resolve(failed(`the extraction process ended without a result (${(error as Error)?.message ?? error})`));
    } finally {
      clearTimeout(timer);
      this.#running.delete(controller);
      this.#next();
    }
  }

  /** Stops every running task (their uploads stay `uploaded`) and ends the processes. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const job of [...this.#queues.values()].flat()) job.reject(new PoolClosed());
    this.#queues.clear();
    for (const controller of this.#running) controller.abort();
    await this.#pool.destroy();
  }
}
