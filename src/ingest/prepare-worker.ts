// The task of the importer's worker threads (src/ingest/prepare-pool.ts): one document's bytes to prepared items.
import { parseDocument, type ParsedItem } from './parse-document.ts';

export interface PrepareTask { name: string; data: Uint8Array; explicit: boolean }

export default function prepare(task: PrepareTask): ParsedItem[] {
  return parseDocument(task.name, task.data, task.explicit);
}
