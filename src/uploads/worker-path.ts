// The one place that knows where the extraction worker script is. A standalone executable bundles the worker as a
// file of its own and names it in config.uploads.workerScript ($JURALITE_EXTRACTION_WORKER).
import { pathToFileURL } from 'node:url';
import type { UploadsConfig } from '../config.ts';

const BESIDE_THE_SOURCES = new URL('./extract/worker.ts', import.meta.url);

/** The worker script as a file URL (what tinypool loads). */
export function extractionWorkerUrl(config: UploadsConfig): string {
  return config.workerScript ? pathToFileURL(config.workerScript).href : BESIDE_THE_SOURCES.href;
}
