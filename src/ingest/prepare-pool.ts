// Worker threads for the importer's pure work: parsing XML and JSON, building texts and chunks, finding citations.
// The main thread keeps what needs the corpus (lookups, writes), so on two cores parsing and writing overlap.
import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';
import { isSea } from 'node:sea';
import { failed, message, parseDocument, type ParsedItem } from './parse-document.ts';
import type { PrepareTask } from './prepare-worker.ts';

/** Documents parsed in the main thread before workers start: a small import is done before they would be ready. */
export const INLINE_DOCUMENTS = 100;

/** Threads beside the main one by default: one per core, at most four (more only wait for the writer). */
export function defaultImportWorkers(): number {
  // The standalone executable carries no worker script on disk: it parses in its main thread.
  return isSea() ? 0 : Math.min(4, availableParallelism());
}

/** Parses documents, in worker threads once the import is big enough to repay starting them. */
export class DocumentParser {
  private readonly workers: number;
  private readonly inlineDocuments: number;
  private pool: Tinypool | undefined;
  private parsed = 0;

  /** `workers`: threads to use (0: all in the main thread); `inlineDocuments`: parsed in the main thread first. */
  constructor(workers: number, inlineDocuments = INLINE_DOCUMENTS) {
    this.workers = workers;
    this.inlineDocuments = inlineDocuments;
  }

  parse(name: string, data: Uint8Array, explicit: boolean): Promise<ParsedItem[]> {
    if (this.workers === 0 || this.parsed++ < this.inlineDocuments) {
      return Promise.resolve().then(() => parseDocument(name, data, explicit));
    }
    this.pool ??= new Tinypool({
      filename: new URL('./prepare-worker.ts', import.meta.url).href,
      runtime: 'worker_threads',
      minThreads: this.workers,
      maxThreads: this.workers,
    });
    const task: PrepareTask = { name, data, explicit };
    // A worker that dies on a document (its heap, say) fails that document; the import goes on.
    return (this.pool.run(task) as Promise<ParsedItem[]>).catch((error: unknown) => [failed(name, message(error))]);
  }

  /** Ends the worker threads (after the last result was taken). */
  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
