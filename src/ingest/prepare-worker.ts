// The tasks of the importer's worker threads (src/ingest/prepare-pool.ts): documents' bytes to prepared items (the
// default export), and at the end chunks to their search analysis (`analyze`). A task carries several documents or
// chunks, since every task costs a fixed toll (tinypool measures the heap after each).
import { handOff, type HandedItem } from './handoff.ts';
import { parseDocument } from './parse-document.ts';

export { analyzeTask as analyze } from '../search/chunk-analysis.ts';

export interface PrepareTask { documents: { name: string; data: Uint8Array; explicit: boolean }[] }

export default function prepare(task: PrepareTask): HandedItem[][] {
  return task.documents.map((document) => parseDocument(document.name, document.data, document.explicit).map(handOff));
}
