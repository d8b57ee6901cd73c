// The rank helper: a worker thread with its own read-only connection to the corpus that ranks the upper half of
// decisions_fts while the calling thread ranks the lower half (src/search/rank-range.ts): on two cores a keyword
// ranking over 100k decisions takes about 0.8 of its time in one thread (each half still reads BM25's statistics
// over the whole table). The call stays synchronous: the calling thread waits
// for the helper with Atomics.wait inside its own read transaction, and the helper answers through shared memory.
// The helper ranks only when it reads the same state of the index as the caller (the FTS5 averages and structure
// records, which every write to the index changes); otherwise, and whenever it is busy, slow, not yet started or
// gone, the caller ranks the upper half itself. The answer is the same either way.
import type Database from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { sql } from '../db/statements.ts';
import { IS_EXECUTABLE } from '../runtime/executable.ts';
import { ALL_ROWS, indexFingerprint, mergeRankings, rankRange, type DocFilter, type RangeRanking } from './rank-range.ts';
import { topKRanking } from './top-k.ts';

/** Indexes with fewer decisions are ranked in one thread: there a ranking takes well under a millisecond. */
export const SPLIT_FROM_DOCS = 20_000;
/** The deepest pool the helper ranks (hybrid's lexical arm and keyword's tenth page of 20). */
export const HELPER_POOL = 200;
/** How long the caller waits for the helper's half before ranking it itself. */
const WAIT_MS = 2_000;

/** The helper's state in shared memory (Int32 slot 0; slot 1 holds the length of the job in bytes). */
export const HelperState = { Idle: 0, Pending: 1, Done: 2, Refused: 3 } as const;

/** What the caller hands over: the upper half to rank, and the state of the index it reads. */
export interface HelperJob extends DocFilter {
  expression: string;
  from: number;
  pool: number;
  fingerprint: string;
}

const encoder = new TextEncoder();

/** The most bytes a job may take in shared memory (a longer one is ranked by the caller alone). */
const JOB_BYTES = 64 * 1024;
const RESULT_NUMBERS = 2 + 2 * HELPER_POOL;
export const HELPER_MEMORY_BYTES = 8 + 8 * RESULT_NUMBERS + JOB_BYTES;

/**
 * The shared memory of a helper: its state and the length of the job, then as float64 the matches, the number of
 * rows, their row ids and their scores, then the job as JSON. Jobs and answers pass through it rather than as
 * messages, which cost a structured clone and the wake-up of the helper's event loop (about 0.3 ms a ranking).
 */
export function helperMemory(buffer: SharedArrayBuffer) {
  return {
    state: new Int32Array(buffer, 0, 2),
    numbers: new Float64Array(buffer, 8, RESULT_NUMBERS),
    job: new Uint8Array(buffer, 8 + 8 * RESULT_NUMBERS, JOB_BYTES),
  };
}

/** Writes a job into the shared memory; false when it does not fit. */
export function writeJob(memory: ReturnType<typeof helperMemory>, job: HelperJob): boolean {
  const text = JSON.stringify(job);
  const { read, written } = encoder.encodeInto(text, memory.job);
  memory.state[1] = written;
  return read === text.length;
}

/** The job the caller last wrote. */
export function readJob(memory: ReturnType<typeof helperMemory>): HelperJob {
  return JSON.parse(Buffer.from(memory.job.buffer, memory.job.byteOffset, memory.state[1]).toString('utf8')) as HelperJob;
}

export { indexFingerprint };

/** Where the index is split, for the state of the index it was found in (null: too small to split). */
interface Split { fingerprint: Buffer; at: number | null }

class RankHelper {
  readonly #path: string;
  readonly #splitFromDocs: number;
  readonly #buffer = new SharedArrayBuffer(HELPER_MEMORY_BYTES);
  readonly #memory = helperMemory(this.#buffer);
  #worker: Worker | null = null;
  #ready = false;
  #gone = false;
  #split: Split | null = null;
  /** Halves the helper ranked, and halves it refused for another index state or an error (observability, tests). */
  readonly served = { ranked: 0, refused: 0 };

  constructor(path: string, splitFromDocs: number) {
    this.#path = path;
    this.#splitFromDocs = splitFromDocs;
  }

  /** The row id at which the index is split (the median document), or null when it is too small to split. */
  #splitAt(db: Database.Database, fingerprint: Buffer): number | null {
    if (!this.#split?.fingerprint.equals(fingerprint)) {
      const { n } = sql<[], { n: number }>(db, 'SELECT count(*) AS n FROM search_docs').get()!;
      const at = n < Math.max(this.#splitFromDocs, 2) ? null
        : sql<[number], { doc_id: number }>(db, 'SELECT doc_id FROM search_docs ORDER BY doc_id LIMIT 1 OFFSET +?').get(Math.floor(n / 2))!.doc_id;
      this.#split = { fingerprint, at };
    }
    return this.#split.at;
  }

  #start(): void {
    const worker = new Worker(new URL('./rank-helper-worker.ts', import.meta.url), { workerData: { path: this.#path, buffer: this.#buffer } });
    worker.on('message', (message) => {
      if (message === 'ready') this.#ready = true;
    });
    worker.on('error', (error) => {
      console.error('juralite: the rank helper failed; searches rank in one thread:', error);
    });
    worker.on('exit', () => {
      this.#gone = true;
    });
    // After the listeners: a 'message' listener refs the worker's port again. The helper never keeps a process alive.
    worker.unref();
    this.#worker = worker;
  }

  /**
   * Posts the upper half of a ranking to the helper when it can take it (call inside the caller's read transaction);
   * returns the row id of the split and a function that waits for the helper's half (null: rank it yourself).
   */
  post(db: Database.Database, expression: string, filter: DocFilter, pool: number): { at: number; upper: () => RangeRanking | null } | null {
    // A filter testing a set this thread keeps cannot run on the helper's connection.
    if (this.#gone || pool > HELPER_POOL || filter.inThread) return null;
    const fingerprint = indexFingerprint(db);
    const at = this.#splitAt(db, fingerprint);
    if (at === null) return null;
    if (!this.#worker) this.#start();
    if (!this.#ready) return null;
    const { state, numbers } = this.#memory;
    // A half the caller stopped waiting for may still be running; a finished one is done with.
    if (Atomics.load(state, 0) === HelperState.Pending) return null;
    const job: HelperJob = {
      expression, whereOnDocs: filter.whereOnDocs, params: filter.params, from: at, pool, fingerprint: fingerprint.toString('base64'),
    };
    if (!writeJob(this.#memory, job)) return null;
    Atomics.store(state, 0, HelperState.Pending);
    Atomics.notify(state, 0);
    return {
      at,
      upper: () => {
        Atomics.wait(state, 0, HelperState.Pending, WAIT_MS);
        const outcome = Atomics.load(state, 0);
        if (outcome === HelperState.Pending) return null;
        Atomics.store(state, 0, HelperState.Idle);
        if (outcome !== HelperState.Done) {
          this.served.refused++;
          return null;
        }
        this.served.ranked++;
        const rows = numbers[1];
        return {
          matches: numbers[0],
          docIds: Array.from(numbers.subarray(2, 2 + rows)),
          scores: Array.from(numbers.subarray(2 + HELPER_POOL, 2 + HELPER_POOL + rows)),
        };
      },
    };
  }

  close(): Promise<number> | undefined {
    this.#gone = true;
    return this.#worker?.terminate();
  }
}

const helpers = new WeakMap<Database.Database, RankHelper>();

/**
 * Gives a read-only corpus connection a rank helper (started at its first large ranking). Not in the standalone
 * executable, which carries no worker script, and not on one core. `splitFromDocs`: the smallest index split.
 */
export function attachRankHelper(db: Database.Database, path: string, splitFromDocs = SPLIT_FROM_DOCS): void {
  if (IS_EXECUTABLE || availableParallelism() < 2) return;
  helpers.set(db, new RankHelper(path, splitFromDocs));
}

/** Stops a connection's rank helper (before the connection closes). */
export function detachRankHelper(db: Database.Database): Promise<number> | undefined {
  const helper = helpers.get(db);
  helpers.delete(db);
  return helper?.close();
}

/**
 * Runs `work` with the connection's helper set aside (it stays started): benchmarks compare one thread with two on
 * the same connection, since another connection would rank from another, colder page cache.
 */
export async function withoutRankHelper<T>(db: Database.Database, work: () => Promise<T>): Promise<T> {
  const helper = helpers.get(db);
  helpers.delete(db);
  try {
    return await work();
  } finally {
    if (helper) helpers.set(db, helper);
  }
}

/** Halves a connection's helper ranked and left to the caller. */
export function rankHelperServed(db: Database.Database): { ranked: number; refused: number } | null {
  return helpers.get(db)?.served ?? null;
}

/**
 * The best `pool` rows of decisions_fts matching `expression` with `filter`, and their matches (rank-range.ts): by the
 * top-k path (top-k.ts) where `phrases` (the expression's phrases, query.ts phrasesOf) are given and it proves its
 * answer; otherwise by BM25 over every match, in two threads where the connection
 * has a rank helper and the index is large enough, in one otherwise. The answer is the same either way.
 */
export function rankDecisionRows(db: Database.Database, expression: string, filter: DocFilter, pool: number, phrases?: string[]): RangeRanking {
  return db.transaction(() => {
    const topK = phrases && topKRanking(db, expression, phrases, filter, pool);
    if (topK) return topK;
    const posted = helpers.get(db)?.post(db, expression, filter, pool);
    if (!posted) return rankRange(db, expression, filter, ALL_ROWS, pool);
    const lower = rankRange(db, expression, filter, [ALL_ROWS[0], posted.at], pool);
    const upper = posted.upper() ?? rankRange(db, expression, filter, [posted.at, ALL_ROWS[1]], pool);
    return mergeRankings(lower, upper, pool);
  })();
}
