import { availableParallelism } from 'node:os';
import pkg from '../package.json' with { type: 'json' };
import { DEFAULT_PLAN_TERMS, type Plan, type PlanTerms } from './accounts/plans.ts';

/** Every API path lives under this prefix: the major version is the contract. */
export const API_BASE = '/api/v1';

/** The release that serves an answer: `api_version` in bodies, `X-Service-Api-Release` in headers. */
export const RELEASE: string = pkg.version;

export interface Config {
  release: string;
  /** The address clients reach this service at (no trailing slash); `corpus_url` links are built from it. */
  publicUrl: string;
  /** Where the service's documentation lives; problem `type` URIs are `{docsUrl}/api/errors#<code>`. */
  docsUrl: string;
  changelogUrl: string;
  plans: Record<Plan, PlanTerms>;
  uploads: UploadsConfig;
  /** The external embedder for semantic search; null: the embedder trained on the corpus (docs/search.md). */
  embeddings: EmbeddingsConfig | null;
}

/** The contract's upload limit, "25 MB", in bytes. */
export const UPLOAD_MAX_BYTES = 25 * 1000 * 1000;

/** Document uploads for the citation check (docs/uploads.md). */
export interface UploadsConfig {
  /** Where uploaded files wait for extraction; null: `uploads/` beside the state database. */
  dir: string | null;
  /** Largest accepted file, enforced while streaming (25 MB). */
  maxBytes: number;
  /** Uploads per organization that are neither consumed nor expired. */
  quota: number;
  /** Extraction processes running at once. */
  workers: number;
  /** A document whose extraction takes longer fails as unreadable and its process is ended. */
  timeoutMs: number;
  /** Heap of one extraction process, in MB; a document needing more fails as unreadable. */
  workerMemoryMb: number;
  /** The extraction worker script; null: the one beside the sources (src/uploads/worker-path.ts). */
  workerScript: string | null;
  /** How often expired uploads are swept (their files and texts deleted). */
  sweepIntervalMs: number;
}

/** One core stays with the HTTP server; more than four processes only queue on I/O. */
const defaultWorkers = () => Math.max(1, Math.min(4, availableParallelism() - 1));

function positiveInteger(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a positive integer (got "${value}")`);
  return number;
}

function loadUploadsConfig(env: NodeJS.ProcessEnv): UploadsConfig {
  return {
    dir: env.JURALITE_UPLOADS_DIR || null,
    maxBytes: UPLOAD_MAX_BYTES,
    quota: 20,
    workers: positiveInteger(env.JURALITE_EXTRACTION_WORKERS, defaultWorkers(), 'JURALITE_EXTRACTION_WORKERS'),
    timeoutMs: positiveInteger(env.JURALITE_EXTRACTION_TIMEOUT_MS, 120_000, 'JURALITE_EXTRACTION_TIMEOUT_MS'),
    workerMemoryMb: positiveInteger(env.JURALITE_EXTRACTION_MEMORY_MB, 1024, 'JURALITE_EXTRACTION_MEMORY_MB'),
    workerScript: env.JURALITE_EXTRACTION_WORKER || null,
    sweepIntervalMs: 10 * 60 * 1000,
  };
}

/** Where a server listening on host:port is reached from this machine (a wildcard host: over loopback). */
function localUrl({ host, port }: { host: string; port: number }): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * The configuration, from defaults and JURALITE_* environment variables. Without JURALITE_PUBLIC_URL, links in
 * answers point at the address the server listens on (`listening`).
 *
 * @example const config = loadConfig({ JURALITE_PUBLIC_URL: 'https://recht.kanzlei.example' });
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, listening: { host: string; port: number } = { host: '127.0.0.1', port: 8080 }): Config {
  const publicUrl = (env.JURALITE_PUBLIC_URL ?? localUrl(listening)).replace(/\/+$/, '');
  return {
    release: RELEASE,
    publicUrl,
    docsUrl: `${publicUrl}/docs`,
    changelogUrl: `${publicUrl}/docs/changelog`,
    plans: DEFAULT_PLAN_TERMS,
    uploads: loadUploadsConfig(env),
    embeddings: loadEmbeddingsConfig(env),
  };
}

/**
 * An OpenAI-compatible `/v1/embeddings` endpoint that a firm runs itself (docs/search.md, "External embedder").
 * Read from the environment by both `juralite serve` (queries) and `juralite import` (decision vectors), so both use
 * the same one; the corpus records which embedder made its vectors and refuses queries by another.
 */
export interface EmbeddingsConfig {
  /** The endpoint: `http://host:port/v1` (then `/embeddings` is appended) or the full `.../v1/embeddings`. */
  url: string;
  /** The `model` sent with every request and recorded in the corpus. */
  model: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  apiKey: string | null;
  /** One request's time limit. */
  timeoutMs: number;
  /** Texts per request while importing. */
  batchSize: number;
  /** Characters of a decision sent (title, Leitsatz, Tenor first, then the reasons until this many). */
  maxChars: number;
}

/** The embeddings block: null unless JURALITE_EMBEDDINGS_URL is set; then JURALITE_EMBEDDINGS_MODEL is required. */
export function loadEmbeddingsConfig(env: NodeJS.ProcessEnv = process.env): EmbeddingsConfig | null {
  const url = env.JURALITE_EMBEDDINGS_URL?.trim();
  if (!url) return null;
  if (!/^https?:\/\/[^\s]+$/u.test(url)) throw new Error(`JURALITE_EMBEDDINGS_URL must be an http(s) URL (got "${url}")`);
  const model = env.JURALITE_EMBEDDINGS_MODEL?.trim();
  if (!model) throw new Error('JURALITE_EMBEDDINGS_MODEL must name the embedding model when JURALITE_EMBEDDINGS_URL is set');
  return {
    url: url.replace(/\/+$/u, ''),
    model,
    apiKey: env.JURALITE_EMBEDDINGS_API_KEY?.trim() || null,
    timeoutMs: positiveInteger(env.JURALITE_EMBEDDINGS_TIMEOUT_MS, 30_000, 'JURALITE_EMBEDDINGS_TIMEOUT_MS'),
    batchSize: positiveInteger(env.JURALITE_EMBEDDINGS_BATCH, 32, 'JURALITE_EMBEDDINGS_BATCH'),
    maxChars: positiveInteger(env.JURALITE_EMBEDDINGS_MAX_CHARS, 6_000, 'JURALITE_EMBEDDINGS_MAX_CHARS'),
  };
}
