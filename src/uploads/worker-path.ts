// The one place that knows where the extraction worker script is and how its processes start. A configured script
// (config.uploads.workerScript, $JURALITE_EXTRACTION_WORKER) wins; the standalone executable carries the worker in
// its bundle (src/runtime/extraction-worker.ts); otherwise the script beside the sources runs.
import { pathToFileURL } from 'node:url';
import type { UploadsConfig } from '../config.ts';
import { IS_EXECUTABLE } from '../runtime/executable.ts';
import { EMBEDDED_WORKER_URL } from '../runtime/extraction-worker.ts';

const BESIDE_THE_SOURCES = new URL('./extract/worker.ts', import.meta.url);

/** The worker script as a URL (what tinypool loads). */
export function extractionWorkerUrl(config: UploadsConfig, executable = IS_EXECUTABLE): string {
  if (config.workerScript) return pathToFileURL(config.workerScript).href;
  return executable ? EMBEDDED_WORKER_URL : BESIDE_THE_SOURCES.href;
}

/**
 * The environment of a worker process. The executable takes every argument as its own, so the heap cap tinypool
 * passes as execArgv would be ignored there; a single executable application reads NODE_OPTIONS instead. Undefined
 * outside it (tinypool's default: nothing inherited).
 */
export function extractionWorkerEnv(config: UploadsConfig, executable = IS_EXECUTABLE): Record<string, string> | undefined {
  return executable ? { NODE_OPTIONS: `--max-old-space-size=${config.workerMemoryMb}` } : undefined;
}
