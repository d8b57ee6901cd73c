// The access log: one JSON line per HTTP request (pino), or the same line made readable on a terminal. It never holds
// the bearer token, the query string, a search query or a checked text; the arguments of operation calls appear only
// when the operator turns query logging on (JURALITE_LOG_QUERIES=1; docs/operations.md).
import { randomUUID } from 'node:crypto';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';

/** What one HTTP request did, filled in as it is served and written as its log line. */
export interface RequestRecord {
  /** Sent back as X-Request-Id: the caller's own id where it is sane, else a new UUID. */
  readonly id: string;
  transport?: 'rest' | 'mcp';
  /** The operation called (over MCP: the tools called, comma-separated). */
  operation?: string;
  organization?: string;
  /** Credits charged. */
  cost: number;
  /** The problem code of a refused call. */
  code?: string;
  /** The call's arguments: only with query logging on. */
  args?: unknown;
  /** The status of an answer its handler wrote to the socket itself (the line's status; src/http/app.ts). */
  status?: number;
}

export type LogFormat = 'json' | 'pretty';

/** Levels an operator may choose (pino's), and `silent`. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** An incoming X-Request-Id is kept if it looks like an id (a proxy's, say): 1 to 128 of these characters. */
const SANE_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/u;

/** The request's id: the caller's X-Request-Id where it is sane, else a new UUID. */
export function requestIdOf(incoming: string | null): string {
  return incoming !== null && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Lines wait until this many bytes are buffered (about 12 lines) or LOG_FLUSH_MS has passed, whichever is first. */
export const LOG_BUFFER_BYTES = 4096;
/** The longest a written line waits in the buffer before it leaves (a quiet server's lines still appear at once). */
export const LOG_FLUSH_MS = 1000;

/**
 * Where the access log writes by default (stdout, fd 1): asynchronously and buffered, so that a request does not cost
 * a write of its own (one write per line was a tenth of a cheap request's time: bench/README, Session 17); lines
 * leave once 4 KB are buffered, at most a second after they were logged, and pino writes what is left when the
 * process exits. At most 16 MB wait for a slow reader.
 *
 * @example pino(pino.destination(bufferedLogDestination('/dev/null')))
 */
export function bufferedLogDestination(dest: number | string = 1) {
  return { dest, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS, maxLength: 16 * 1024 * 1024 };
}

/**
 * The access logger: JSON lines on `destination` (stdout by default), or readable lines where `format` is pretty.
 *
 * @example const log = createAccessLog({ level: 'info', format: process.stdout.isTTY ? 'pretty' : 'json' });
 */
export function createAccessLog(options: { level: Level | 'silent'; format: LogFormat; destination?: DestinationStream }): Logger {
  const out = options.destination ?? pino.destination(bufferedLogDestination());
  return pino({
    level: options.level,
    // No pid or hostname on every line: the service is one process, and its supervisor knows the host.
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  }, options.format === 'pretty' ? readableLines(out) : out);
}

/** A logger that writes nothing (tests, `juralite mcp`). */
export const silentLog = (): Logger => pino({ level: 'silent' });

/** Paths probed every few seconds (load balancers, Prometheus): logged at debug, so they do not flood the log. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Writes the line of one finished request: errors (5xx) at error, probes at debug, everything else at info. */
export function logRequest(log: Logger, record: RequestRecord, request: { method: string; path: string; ip?: string },
  status: number, milliseconds: number): void {
  const level: Level = status >= 500 ? 'error' : PROBES.has(request.path) ? 'debug' : 'info';
  if (!log.isLevelEnabled(level)) return;
  log[level]({
    request_id: record.id, method: request.method, path: request.path, status,
    duration_ms: Math.round(milliseconds * 100) / 100, ip: request.ip, transport: record.transport,
    operation: record.operation, organization: record.organization, cost: record.cost, code: record.code, args: record.args,
  }, 'request');
}

/** The fields a readable line shows first, in this order, without their names. */
const HEAD = ['method', 'path', 'status'] as const;

/** pino's JSON lines as `12:04:01.123 INFO  GET /api/v1/search 200 12.3 ms operation=search cost=1 ...`. */
function readableLines(out: DestinationStream): DestinationStream {
  return {
    write(line: string) {
      const { time, level, msg, duration_ms: milliseconds, ...fields } = JSON.parse(line) as Record<string, unknown>;
      const head = HEAD.filter((name) => fields[name] !== undefined).map((name) => fields[name]);
      for (const name of HEAD) delete fields[name];
      const rest = Object.entries(fields).map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
      const words = [String(time).slice(11, 23), String(level).toUpperCase().padEnd(5),
        ...(head.length ? head : [msg]), ...(milliseconds === undefined ? [] : [`${milliseconds} ms`]), ...rest];
      out.write(`${words.join(' ')}\n`);
    },
  };
}
