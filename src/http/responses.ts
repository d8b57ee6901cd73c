import { STATUS_CODES, type ServerResponse } from 'node:http';
// srvx's Response (h3's own): Node writes its string body in one call with a content-length; a global Response would
// be read back through a web stream and sent chunked.
import { FastResponse } from 'srvx';
import { ApiError, unexpectedFailure } from '../errors.ts';
import type { Config } from '../config.ts';
import { envelope, type Answer } from '../operations/execute.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** The challenge of every 401 answer, REST and MCP. */
const BEARER_CHALLENGE = 'Bearer realm="juralite"';

/** Statuses whose problems state that nothing was charged (the contract: all but 401, 409 and 422). */
const CHARGE_NOT_APPLICABLE = new Set([401, 409, 422]);

/** Headers every answer carries. */
export function baseHeaders(config: Config, contentType: string, extra: Record<string, string> = {}): Headers {
  return new Headers({ 'content-type': contentType, 'x-service-api-release': config.release, ...extra });
}

/** A JSON answer; the status line carries its reason phrase ("200 OK"), which a bare web Response leaves empty. */
export function jsonResponse(config: Config, status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new FastResponse(JSON.stringify(body), { status, statusText: STATUS_CODES[status], headers: baseHeaders(config, JSON_TYPE, extra) });
}

/** What a handler returns once it wrote the answer to Node's response itself (h3's own marker, `kHandled`). */
export const WRITTEN = Symbol.for('h3.handled');

/**
 * A JSON answer written straight to Node's response (`res`, the server's), as jsonResponse's would be on the wire:
 * the same status line, headers in the order a Headers object lists them (by name) with content-length last, and the
 * same body, sent in one write; without a web Response, two Headers objects and srvx's copy of them. The body goes as
 * UTF-8 bytes encoded once into a reused buffer (`joined`): its length is the content-length, and Node writes
 * the head and the bytes with one writev, where a string body was measured, encoded again and joined to the head.
 */
export function writeJson(res: ServerResponse, config: Config, status: number, body: unknown,
  extra: Record<string, string>): typeof WRITTEN {
  return writeBytes(res, config, status, joined(res, JSON.stringify(body), ''), extra);
}

/**
 * The JSON text of kept results: a search hands out the answer it keeps (src/search/answer-cache.ts, frozen deeply:
 * only that cache freezes results) to every call asking the same again, and such a call writes this text instead of
 * stringifying the answer anew (bench/README, Session 24). Text, not bytes: a copy of the bytes per answer made the
 * new queries' writes dearer (+0.04 ms), and the text exists already. Keyed by the result, it goes with it.
 */
const keptResults = new WeakMap<object, string>();

/**
 * An operation's answer written as writeJson writes its body, byte for byte; a kept (frozen) result's JSON is made
 * once, and each answer adds its envelope's fields (its credits differ call by call) after the result's own.
 */
export function writeAnswer(res: ServerResponse, config: Config, answer: Answer, extra: Record<string, string>): typeof WRITTEN {
  const { result } = answer;
  if (!Object.isFrozen(result)) return writeJson(res, config, answer.status, answer.body, extra);
  // The envelope's text without its opening brace, after the result's last field (a comma) or alone in an empty one.
  const fields = JSON.stringify(envelope({}, answer.body.credits, config)).slice(1);
  // The result's JSON without its closing brace (a slice: no copy).
  let opened = keptResults.get(result);
  if (opened === undefined) keptResults.set(result, opened = JSON.stringify(result).slice(0, -1));
  return writeBytes(res, config, answer.status, joined(res, opened, opened.length > 1 ? `,${fields}` : fields), extra);
}

/**
 * Two texts' UTF-8 bytes one after the other, in the reused buffer: a new Buffer per answer (Buffer.from) measures the
 * text, allocates and encodes; memory freshly touched is dear on the machines measured (bench/README, Session 22).
 * Valid until the next call; writeBytes gives the buffer up when a write keeps it, and an answer gets bytes of its own
 * where a write already waits on its connection (a slow reader, a pipelined answer queued behind another): a kept
 * buffer pins only one answer's worth of memory per slow connection.
 */
function joined(res: ServerResponse, first: string, second: string): Buffer {
  if (ownBytes(res) || first.length > SCRATCH_UNITS) return Buffer.from(first + second);
  // Room for the worst case (3 bytes a unit), so that write() never cuts the text short.
  const into = scratchOf((first.length + second.length) * 3);
  const length = into.write(first);
  return into.subarray(0, length + into.write(second, length));
}

/**
 * Whether an answer needs bytes of its own: a write already waiting on the connection (a slow reader, an answer queued
 * behind a pipelined one) would keep the reused buffer.
 */
const ownBytes = (res: ServerResponse) => !res.socket || res.socket.writableLength > 0;

/** The head and `bytes` in one write; the reused buffer is given up when the write keeps it. */
function writeBytes(res: ServerResponse, config: Config, status: number, bytes: Buffer, extra: Record<string, string>): typeof WRITTEN {
  const named: [string, string][] = [['content-type', JSON_TYPE], ['x-service-api-release', config.release], ...Object.entries(extra)];
  named.sort(([a], [b]) => (a < b ? -1 : 1));
  const head = named.flat();
  head.push('content-length', String(bytes.length));
  res.writeHead(status, STATUS_CODES[status], head).end(bytes);
  // The socket took all of it at once (the usual case), or the reused buffer now belongs to the pending write.
  if (res.writableLength > 0 && bytes.buffer === scratch?.buffer) scratch = null;
  return WRITTEN;
}

/** Answers up to this many UTF-16 units are encoded into the reused buffer (at most 3 bytes each); larger ones get their own. */
const SCRATCH_UNITS = 256 * 1024;
/** The reused buffer's first size; it doubles to hold the largest answer seen (a search's is some 30-60 KB of text). */
const SCRATCH_FIRST_BYTES = 64 * 1024;
let scratch: Buffer | null = null;

/** The reused buffer, at least `bytes` long. */
function scratchOf(bytes: number): Buffer {
  if (!scratch || scratch.length < bytes) {
    let size = scratch?.length ?? SCRATCH_FIRST_BYTES;
    while (size < bytes) size *= 2;
    scratch = Buffer.allocUnsafeSlow(size);
  }
  return scratch;
}

/** An HTML page (the docs pages answers link to). */
export function htmlResponse(config: Config, html: string): Response {
  return new FastResponse(html, { status: 200, statusText: 'OK', headers: baseHeaders(config, 'text/html; charset=utf-8') });
}

/** The RFC 9457 problem body of an error. */
export function problemBody(error: ApiError, config: Config): Record<string, unknown> {
  const charged = CHARGE_NOT_APPLICABLE.has(error.status) ? '' : ' Nothing was charged.';
  return {
    type: `${config.docsUrl}/api/errors#${error.code}`,
    title: STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    detail: `${error.message}${charged}`,
    code: error.code,
    ...error.extras,
  };
}

/** Any error as a problem+json response; what is not an ApiError is logged and served as 503. */
export function problemResponse(error: unknown, config: Config, extra: Record<string, string> = {}): Response {
  const apiError = error instanceof ApiError
    ? error
    : (console.error('juralite: unexpected error at the HTTP edge:', error),
      unexpectedFailure(error));
  const headers = baseHeaders(config, PROBLEM_TYPE, extra);
  if (apiError.extras.retry_after_seconds !== undefined) headers.set('retry-after', String(apiError.extras.retry_after_seconds));
  // RFC 9110 §11.6.1: a 401 names the scheme that would succeed.
  if (apiError.status === 401) headers.set('www-authenticate', BEARER_CHALLENGE);
  return new FastResponse(JSON.stringify(problemBody(apiError, config)), { status: apiError.status, statusText: STATUS_CODES[apiError.status], headers });
}

/**
 * A request Node's HTTP parser refused before any handler saw it (a head over 16 KB: 431; broken framing: 400),
 * written straight to the socket as a problem, with the release header like every other answer.
 */
export function parserRefusal(error: NodeJS.ErrnoException, config: Config): string {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = unreadableBody(status, status === 431 ? 'The request head is larger than 16 KB.' : 'The request could not be read as HTTP.', config);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: ${PROBLEM_TYPE}\r\nx-service-api-release: ${config.release}\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** A request Node parsed but would refuse bare (no Host header: 400; an Expect other than 100-continue: 417). */
export function edgeRefusal(response: ServerResponse, status: 400 | 417, detail: string, config: Config): void {
  const body = unreadableBody(status, detail, config);
  response.writeHead(status, STATUS_CODES[status], {
    'content-type': PROBLEM_TYPE, 'x-service-api-release': config.release, 'content-length': Buffer.byteLength(body), connection: 'close',
  }).end(body);
}

function unreadableBody(status: number, detail: string, config: Config): string {
  return JSON.stringify({
    type: `${config.docsUrl}/api/errors#request_unreadable`,
    title: STATUS_CODES[status],
    status,
    detail: `${detail} Nothing was charged.`,
    code: 'request_unreadable',
  });
}
