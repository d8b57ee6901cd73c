import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3';
import { openCorpus, type CorpusDb } from './corpus/open.ts';
import { existsSync } from 'node:fs';
import { RateWindows } from './accounts/limits.ts';
import { SqliteStore } from './state/sqlite-store.ts';
import type { RateLimiter, StateStore } from './state/store.ts';
import { loadConfig, type Config } from './config.ts';
import { createApp } from './http/app.ts';
import { edgeRefusal, parserRefusal } from './http/responses.ts';
import type { Operation, Services } from './operations/operation.ts';
import { stopUploads, uploadsOf } from './uploads/service.ts';
import { attachRankHelper, detachRankHelper } from './search/rank-helper.ts';
import { warmPageCache } from './corpus/warm-cache.ts';
import type { Observability } from './observability/observability.ts';

/**
 * Opens an existing corpus read-only (the server never writes it; replacing the file never touches accounts), with
 * a rank helper for keyword rankings over a large index (src/search/rank-helper.ts).
 */
export function openCorpusReadonly(path: string): CorpusDb | null {
  if (!existsSync(path)) return null;
  const corpus = openCorpus(path, { readonly: true });
  attachRankHelper(corpus, path);
  return corpus;
}

/**
 * Everything the operations use, opened once.
 *
 * @example const services = openServices({ corpusPath: 'data/corpus.db', statePath: 'data/state.db' });
 */
export function openServices(options: {
  corpusPath: string;
  /** The SQLite state file, unless `store` is given (PostgreSQL: src/state/open.ts openStateStore). */
  statePath?: string;
  store?: StateStore;
  /** The rate limiter; default: in memory (RateWindows), right for one process. */
  rates?: RateLimiter;
  config?: Config;
  clock?: () => Date;
}): Services {
  const store = options.store ?? new SqliteStore(options.statePath!);
  return {
    store,
    get state() {
      if (store instanceof SqliteStore) return store.db;
      throw new Error('The state is on PostgreSQL: there is no SQLite state database to work on.');
    },
    corpus: openCorpusReadonly(options.corpusPath),
    config: options.config ?? loadConfig(),
    clock: options.clock ?? (() => new Date()),
    rates: options.rates ?? new RateWindows(),
  };
}

/** How long a replaced corpus connection stays open for requests that started on it (an await may hold it). */
const RETIRE_AFTER_MS = 60_000;

/**
 * Opens the corpus file at `path` anew and serves from it (SIGHUP): a file that appeared since the start, or another
 * file swapped in by renaming a symlink (`corpus.db -> corpus-2026-11-27.db`; SQLite names the -wal and -shm after
 * the target, so two files never share them). The old connection is closed a minute later, once requests that
 * started on it are done. A file that cannot be opened leaves the old one in service; the reason is returned.
 * Writes to the open file (juralite sync, juralite import in WAL) need no reopen: each request reads what is committed.
 *
 * @example process.on('SIGHUP', () => console.log(reopenCorpus(services, 'data/corpus.db')));
 */
export function reopenCorpus(services: Services, path: string): string {
  let next: CorpusDb | null;
  try {
    next = openCorpusReadonly(path);
  } catch (error) {
    return `the corpus ${path} could not be reopened (${error instanceof Error ? error.message : error}); still serving the one opened before`;
  }
  if (!next) return `no corpus at ${path}; still serving the one opened before`;
  // Requests arrive meanwhile: its page cache fills between them (src/corpus/warm-cache.ts).
  void warmPageCache(next);
  const old = services.corpus;
  services.corpus = next;
  if (old) {
    setTimeout(() => {
      detachRankHelper(old);
      old.close();
    }, RETIRE_AFTER_MS).unref();
  }
  const decisions = next.prepare('SELECT count(*) FROM decisions').pluck().get();
  return `reopened the corpus ${path} (${decisions} decisions)`;
}

/** SIGHUP reopens the corpus (reopenCorpus) and says so on stdout; `juralite serve` installs it. */
export function reopenOnHangup(services: Services, path: string): void {
  process.on('SIGHUP', () => console.log(`juralite: ${reopenCorpus(services, path)}`));
}

/** Closes the databases; running extractions are abandoned and redone on the next start. */
export function closeServices(services: Services): void {
  stopUploads(services).catch((error) => console.error('juralite: stopping the extraction pool failed:', error));
  if (services.corpus) {
    detachRankHelper(services.corpus);
    services.corpus.close();
  }
  services.store.close().catch((error) => console.error('juralite: closing the state failed:', error));
}

/**
 * Serves the API on host:port (port 0 picks a free one); resolves once listening. Uploads are received only here,
 * so the upload machinery starts with it: uploads left `uploaded` by the last run are extracted again. The corpus
 * connection's page cache is filled before the first request (src/corpus/warm-cache.ts: 2-4 s at 100k-500k
 * decisions; filled while requests arrive, each of them waited for a slice).
 */
export async function listen(
  services: Services, host: string, port: number, operations?: readonly Operation[], observability?: Observability,
): Promise<{ server: Server; url: string }> {
  if (services.corpus) await warmPageCache(services.corpus);
  uploadsOf(services);
  // A serving process checkpoints its SQLite state in a thread (src/state/wal-checkpoints.ts), not in calls' commits.
  if (services.store instanceof SqliteStore) services.store.checkpointInThread();
  const app = toNodeHandler(createApp(services, operations, observability));
  // Node refuses an HTTP/1.1 request without Host (RFC 9112 §3.2) and an Expect it cannot meet itself, bare: here they
  // get the problem and the release header every other answer carries.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    if (request.httpVersion === '1.1' && request.headers.host === undefined) {
      edgeRefusal(response, 400, 'An HTTP/1.1 request needs a Host header.', services.config);
      return;
    }
    void app(request, response);
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    edgeRefusal(response, 417, `The expectation "${String(request.headers.expect)}" cannot be met; only 100-continue can.`, services.config);
  });
  // The metrics listen to the process's extractions: they stop with the server (a test process opens many).
  server.once('close', () => observability?.metrics?.close());
  server.keepAliveTimeout = 5_000;
  // A client may half-close its side once the body is sent (shutdown(SHUT_WR)) and still read the answer: by default
  // Node aborts the request on that FIN, and an upload already stored went unanswered. (Node's own switch, untyped.)
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (socket.writable && !socket.writableEnded) socket.end(parserRefusal(error, services.config));
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, url: `http://${shownHost}:${address.port}` };
}
