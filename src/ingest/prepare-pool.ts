// Worker threads for the importer's pure work: parsing XML and JSON, building texts and chunks, finding citations, and
// at the end the search analysis of the chunks written (src/search/chunk-analysis.ts). The main thread keeps what
// needs the corpus (lookups, writes), so on two cores parsing and writing overlap.
import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';
import { IS_EXECUTABLE } from '../runtime/executable.ts';
import type { AnalysisTask, ChunkAnalysis } from '../search/chunk-analysis.ts';
import type { AnalysisThreads } from '../search/index-sync.ts';
import { takeOver, type HandedItem } from './handoff.ts';
import { failed, message, parseDocument, type ParsedItem } from './parse-document.ts';
import type { PrepareTask } from './prepare-worker.ts';

/** Documents parsed in the main thread before workers start: a small import is done before they would be ready. */
export const INLINE_DOCUMENTS = 100;
/** Documents sent to a worker in one task. */
const DOCUMENTS_PER_TASK = 8;

/** Threads beside the main one by default: one per core, at most four (more only wait for the writer). */
export function defaultImportWorkers(): number {
  // The standalone executable carries no worker script on disk: it parses in its main thread.
  return IS_EXECUTABLE ? 0 : Math.min(4, availableParallelism());
}

interface Waiting { document: PrepareTask['documents'][number]; resolve: (items: ParsedItem[]) => void }

/**
 * Parses documents, in worker threads once the import is big enough to repay starting them. Documents for the
 * workers wait until a task is full; `sendFor` sends a partial one when the importer is about to wait for one of its
 * documents. The same threads then analyse the chunks for the search index (`analysisThreads`).
 */
export class ImportWorkers {
  private readonly workers: number;
  private readonly inlineDocuments: number;
  private pool: Tinypool | undefined;
  private parsed = 0;
  private waiting: Waiting[] = [];
  /** The promises of the documents in `waiting`. */
  private unsent = new WeakSet<Promise<ParsedItem[]>>();

  /** `workers`: threads to use (0: all in the main thread); `inlineDocuments`: parsed in the main thread first. */
  constructor(workers: number, inlineDocuments = INLINE_DOCUMENTS) {
    this.workers = workers;
    this.inlineDocuments = inlineDocuments;
  }

  parse(name: string, data: Uint8Array, explicit: boolean): Promise<ParsedItem[]> {
    if (this.workers === 0 || this.parsed++ < this.inlineDocuments) {
      return Promise.resolve().then(() => parseDocument(name, data, explicit));
    }
    const result = new Promise<ParsedItem[]>((resolve) => this.waiting.push({ document: { name, data, explicit }, resolve }));
    this.unsent.add(result);
    if (this.waiting.length >= DOCUMENTS_PER_TASK) this.send();
    return result;
  }

  /** Sends the partial task holding the document of `result`, if it still waits. */
  sendFor(result: Promise<ParsedItem[]>): void {
    if (this.unsent.has(result)) this.send();
  }

  private send(): void {
    const waiting = this.waiting;
    this.waiting = [];
    this.unsent = new WeakSet();
    const task: PrepareTask = { documents: waiting.map((entry) => entry.document) };
    (this.threads().run(task) as Promise<HandedItem[][]>).then(
      (results) => waiting.forEach((entry, index) => entry.resolve(results[index].map(takeOver))),
      // A worker that dies on a task (its heap, say) fails its documents; the import goes on.
      (error: unknown) => waiting.forEach((entry) => entry.resolve([failed(entry.document.name, message(error))])),
    );
  }

  private threads(): Tinypool {
    this.pool ??= new Tinypool({
      filename: new URL('./prepare-worker.ts', import.meta.url).href,
      runtime: 'worker_threads',
      minThreads: this.workers,
      maxThreads: this.workers,
      // Every task is handed to a worker at once (the importer bounds how many documents are out): tinypool
      // dispatches from the main thread, which is busy for the length of a batch's transaction, and workers handed
      // one task each would finish it and idle until the commit.
      concurrentTasksPerWorker: Number.MAX_SAFE_INTEGER,
    });
    return this.pool;
  }

  /**
   * The threads for the search analysis at the end of the import, or null when this import started none (it was
   * small: the calling thread analyses faster than threads start).
   */
  analysisThreads(): AnalysisThreads | null {
    if (!this.pool) return null;
    return {
      count: this.workers,
      analyze: (task: AnalysisTask) => this.threads().run(task, { name: 'analyze' }) as Promise<ChunkAnalysis>,
    };
  }

  /** Ends the worker threads (after the last result was taken). */
  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
