// The polite HTTP client of `juralite sync`: one request at a time (so one keep-alive connection per host), a pause
// between requests, a User-Agent naming juralite and its version, retries with exponential backoff on 429, 5xx,
// timeouts and broken connections (a Retry-After is honoured), and conditional GETs (ETag, Last-Modified).
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { RELEASE } from '../config.ts';

export interface FetcherOptions {
  /** Pause between two requests, ms (default 250). */
  pauseMs?: number;
  /** Attempts after the first (default 4). */
  retries?: number;
  /** The first backoff, ms, doubled on every retry (default 2,000); a Retry-After above it wins, up to maxWaitMs. */
  backoffMs?: number;
  /** The longest wait before a retry, ms (default 300,000). */
  maxWaitMs?: number;
  /** A request (headers and whole body) taking longer fails the attempt, ms (default 120,000). */
  timeoutMs?: number;
  /** Answers larger than this fail (default 512 MB). */
  maxBytes?: number;
}

/** What the client already holds of a URL: sent as If-None-Match and If-Modified-Since. */
export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

export type Fetched<Body = Buffer> =
  | { status: 'fresh'; body: Body; etag: string | null; lastModified: string | null }
  | { status: 'unchanged' };

/** A URL that could not be fetched after all retries (or was refused for good: 404, 403). */
export class FetchError extends Error {}

/** The User-Agent juralite sends. */
export const USER_AGENT = `juralite/${RELEASE} (+https://github.com/juralite; legal research, polite sync)`;

/** Statuses worth trying again. */
const retryable = (status: number) => status === 429 || status === 408 || status >= 500;

/**
 * One polite client per sync run.
 *
 * @example
 * const fetcher = new PoliteFetcher({ pauseMs: 250 });
 * const answer = await fetcher.get('https://www.gesetze-im-internet.de/gg/xml.zip', { etag: '"abc"' });
 */
export class PoliteFetcher {
  /** Requests sent (each attempt counts). */
  requests = 0;
  private lastEnd = 0;
  private readonly options: Required<FetcherOptions>;

  constructor(options: FetcherOptions = {}) {
    this.options = {
      pauseMs: 250, retries: 4, backoffMs: 2_000, maxWaitMs: 300_000, timeoutMs: 120_000, maxBytes: 512 * 1024 * 1024,
      ...options,
    };
  }

  /** GETs a URL; `unchanged` when the server answers 304 to the validators given. Throws FetchError at the end. */
  get(url: string, validators: Validators = {}): Promise<Fetched> {
    return this.retrying(url, validators, (response) => this.readBody(response));
  }

  /** GETs a URL into a file (0600) as it arrives, for dumps larger than memory; the body is the byte count. */
  download(url: string, file: string, validators: Validators = {}): Promise<Fetched<number>> {
    return this.retrying(url, validators, async (response) => {
      let length = 0;
      const count = new Transform({ transform(chunk: Buffer, _encoding, done) { length += chunk.length; done(null, chunk); } });
      await pipeline(Readable.fromWeb(response.body! as never), count, createWriteStream(file, { mode: 0o600 }));
      checkLength(response, length);
      return length;
    });
  }

  private async retrying<Body>(url: string, validators: Validators, read: (response: Response) => Promise<Body>): Promise<Fetched<Body>> {
    const { retries, backoffMs, maxWaitMs } = this.options;
    let problem = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      const outcome = await this.attempt(url, validators, read);
      if ('fetched' in outcome) return outcome.fetched;
      problem = outcome.problem;
      if (!outcome.retry || attempt === retries) break;
      const backoff = backoffMs * 2 ** attempt;
      await sleep(Math.min(maxWaitMs, Math.max(backoff, outcome.retryAfterMs ?? 0)));
    }
    throw new FetchError(`${url}: ${problem}`);
  }

  private async attempt<Body>(url: string, validators: Validators, read: (response: Response) => Promise<Body>):
    Promise<{ fetched: Fetched<Body> } | { problem: string; retry: boolean; retryAfterMs?: number }> {
    const wait = this.lastEnd + this.options.pauseMs - Date.now();
    if (this.lastEnd > 0 && wait > 0) await sleep(wait);
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: '*/*' };
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    this.requests++;
    try {
      const response = await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.timeout(this.options.timeoutMs) });
      if (response.status === 304) {
        await response.body?.cancel();
        return { fetched: { status: 'unchanged' } };
      }
      if (!response.ok) {
        await response.body?.cancel();
        return {
          problem: `HTTP ${response.status} ${response.statusText}`.trim(),
          retry: retryable(response.status),
          retryAfterMs: retryAfter(response.headers.get('retry-after')),
        };
      }
      const body = await read(response);
      return { fetched: {
        status: 'fresh', body, etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified'),
      } };
    } catch (error) {
      if (error instanceof FetchError) return { problem: error.message, retry: false };
      return { problem: networkProblem(error), retry: true };
    } finally {
      this.lastEnd = Date.now();
    }
  }

  /** The whole body, refused above maxBytes, and checked against a Content-Length (a cut connection is retried). */
  private async readBody(response: Response): Promise<Buffer> {
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > this.options.maxBytes) throw new FetchError(`answer of ${declared} bytes, more than ${this.options.maxBytes}`);
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of response.body ?? []) {
      length += chunk.length;
      if (length > this.options.maxBytes) throw new FetchError(`answer larger than ${this.options.maxBytes} bytes`);
      chunks.push(Buffer.from(chunk));
    }
    checkLength(response, length);
    return Buffer.concat(chunks, length);
  }
}

/** A body shorter than its Content-Length is a cut connection (tried again). */
function checkLength(response: Response, length: number): void {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && !response.headers.get('content-encoding') && length !== declared) {
    throw new Error(`the answer ended after ${length} of ${declared} bytes`);
  }
}

/** Retry-After as ms: seconds, or an HTTP date. */
function retryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/u.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function networkProblem(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'no complete answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}
