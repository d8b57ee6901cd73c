// The upload machinery of one server: the uploads directory, the extraction pool and the expiry sweep. Started
// with the HTTP server (only it receives uploads); on start it deletes orphaned files, expires what is due and
// extracts again every upload still `uploaded`, so a restart loses nothing.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Services } from '../operations/operation.ts';
import { CHECK_MAX_CHARS } from '../operations/check-citations.ts';
import { DOCX_MAX_UNCOMPRESSED_BYTES } from './inspect.ts';
import { ExtractionPool, PoolClosed } from './pool.ts';
import { receiveUpload, type ReceivedFile } from './receive.ts';

/** One extraction ended: how long the pool took and how it ended (the metrics listen: src/observability/metrics.ts). */
export interface ExtractionEnded { seconds: number; status: 'ready' | 'failed'; format: string }
const extractionListeners = new Set<(ended: ExtractionEnded) => void>();

/** Calls `listener` after every extraction of this process; returns what removes it again. */
export function onExtractionEnded(listener: (ended: ExtractionEnded) => void): () => void {
  extractionListeners.add(listener);
  return () => extractionListeners.delete(listener);
}

/** How many extraction listeners this process holds (each server's metrics add one and remove it on closing). */
export const extractionListenerCount = (): number => extractionListeners.size;

export interface Uploads {
  readonly dir: string;
  /** Streams a multipart request's `file` into the uploads directory (422 on `file` when refused). */
  receive(request: Request): Promise<ReceivedFile>;
  /** Extracts an upload in the background if it still waits (a no-op otherwise). */
  extract(id: string): void;
  /** Expires what is due; how many uploads expired. */
  sweep(): Promise<number>;
  /** Resolves once no extraction is running or waiting. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const started = new WeakMap<Services, Uploads>();

/** Where uploaded files wait: configured, or `uploads/` beside the state database (the data directory). */
function uploadsDir(services: Services): string {
  if (services.config.uploads.dir) return services.config.uploads.dir;
  const statePath = services.store.filePath;
  return statePath && statePath !== ':memory:' ? join(dirname(statePath), 'uploads') : join(tmpdir(), `juralite-uploads-${process.pid}`);
}

/** Files no waiting upload names: left by a crash mid-upload, or by an extraction cut short. */
async function removeOrphans(services: Services, dir: string): Promise<void> {
  const waiting = await services.store.waitingPaths();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!waiting.has(path)) rmSync(path, { force: true, recursive: true });
  }
}

function startUploads(services: Services): Uploads {
  const { store, config, clock } = services;
  const dir = uploadsDir(services);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Files arriving meanwhile wait for this pass, so that it cannot take them for orphans.
  const cleaned = removeOrphans(services, dir).catch((error) => console.error('juralite: removing orphaned uploads failed:', error));
  const pool = new ExtractionPool(config.uploads);
  const inFlight = new Map<string, Promise<void>>();
  let closed = false;

  async function extractNow(id: string): Promise<void> {
    const row = await store.waitingUpload(id);
    if (!row?.stored_path) return;
    try {
      const started = performance.now();
      const outcome = await pool.run({
        path: row.stored_path, format: row.format, maxChars: CHECK_MAX_CHARS, maxUncompressedBytes: DOCX_MAX_UNCOMPRESSED_BYTES,
      }, row.organization_id);
      if (closed) return;
      const ended = { seconds: (performance.now() - started) / 1000, status: outcome.status, format: row.format };
      if (outcome.status === 'failed') console.warn(`juralite: upload ${id} failed (${outcome.error_code}): ${outcome.error_detail}`);
      const recorded = await store.recordExtraction(id, outcome);
      // Once the outcome is recorded (a listener can never keep an upload from ending) and before anything else awaits.
      for (const listener of extractionListeners) listener(ended);
      if (recorded) await rm(row.stored_path, { force: true });
    } catch (error) {
      // Closing leaves the upload `uploaded`: the next start extracts it again.
      if (!(error instanceof PoolClosed) && !closed) console.error(`juralite: extracting upload ${id} failed:`, error);
    }
  }

  const sweep = () => (closed ? Promise.resolve(0) : store.expireDue(clock()));
  const timer = setInterval(() => sweep().catch((error) => console.error('juralite: upload sweep failed:', error)),
    config.uploads.sweepIntervalMs);
  timer.unref();

  const uploads: Uploads = {
    dir,
    receive: (request) => cleaned.then(() => receiveUpload(request, { dir, maxBytes: config.uploads.maxBytes })),
    extract(id) {
      if (closed || inFlight.has(id)) return;
      const done = extractNow(id).finally(() => inFlight.delete(id));
      inFlight.set(id, done);
    },
    sweep,
    async settled() {
      while (inFlight.size) await Promise.all(inFlight.values());
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await pool.close();
    },
  };
  // Expired uploads go first, so that nothing due is extracted; then everything still waiting, oldest first.
  void cleaned.then(sweep).then(async () => {
    if (closed) return;
    // On a shared state, a node extracts only the uploads whose files it holds (docs/cluster.md).
    for (const row of await store.waitingUploads()) {
      if (store.kind === 'sqlite' || (row.stored_path && existsSync(row.stored_path))) uploads.extract(row.id);
    }
  }).catch((error) => console.error('juralite: resuming uploads failed:', error));
  return uploads;
}

/**
 * The upload machinery of these services, started on first use.
 *
 * @example uploadsOf(services).extract(upload.id)
 */
export function uploadsOf(services: Services): Uploads {
  let uploads = started.get(services);
  if (!uploads) started.set(services, (uploads = startUploads(services)));
  return uploads;
}

/** Whether the machinery of these services runs (started by the HTTP server and not stopped); for GET /readyz. */
export function uploadsRunning(services: Services): boolean {
  return started.has(services);
}

/** Stops the machinery if it was started: running extractions are abandoned (their uploads stay `uploaded`). */
export function stopUploads(services: Services): Promise<void> {
  const uploads = started.get(services);
  started.delete(services);
  return uploads ? uploads.close() : Promise.resolve();
}
