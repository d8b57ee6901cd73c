// The task of the importer's worker threads (src/ingest/prepare-pool.ts): documents' bytes to prepared items. A task
// carries several documents, since every task costs a fixed toll (tinypool measures the heap after each).
import { parseDocument, type ParsedItem } from './parse-document.ts';

export interface PrepareTask { documents: { name: string; data: Uint8Array; explicit: boolean }[] }

export default function prepare(task: PrepareTask): ParsedItem[][] {
  return task.documents.map((document) => parseDocument(document.name, document.data, document.explicit));
}
