// The extraction worker: the script each pool process runs (tinypool calls its default export once per task).
// Loaded by path, never imported by the server, so that a standalone executable can ship it as a file of its own
// (src/uploads/worker-path.ts resolves it).
import { extractDocument, type ExtractionOutcome, type ExtractionTask } from './extract-document.ts';

export default function extract(task: ExtractionTask): Promise<ExtractionOutcome> {
  return extractDocument(task);
}
