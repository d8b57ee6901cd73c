// Prometheus metrics (prom-client): calls by operation, transport and status, their latency, credits charged, 402
// and 429 refusals by code; read at scrape time: the extraction queue, the corpus's size and as_of. Labels hold
// operation names, transports, statuses and problem codes only: never a token, an organization or any text.
import { statSync } from 'node:fs';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type Database from 'better-sqlite3';
import { corpusAsOf } from '../corpus/coverage.ts';
import type { Services } from '../operations/operation.ts';
import { sql } from '../db/statements.ts';
import { onExtractionEnded } from '../uploads/service.ts';

/** One finished operation call, over REST or MCP. */
export interface CallOutcome {
  operation: string;
  transport: 'rest' | 'mcp';
  status: number;
  seconds: number;
  /** Credits charged (0 for a refusal). */
  cost: number;
  /** The problem code of a refusal. */
  code?: string;
}

export interface Metrics {
  /** Counts one operation call. */
  observeCall(call: CallOutcome): void;
  /** The exposition text, and its content type. */
  scrape(): Promise<{ text: string; contentType: string }>;
  /** Stops listening to the process's extractions (called when the server closes; a test process opens many). */
  close(): void;
}

/** Latency buckets from 1 ms (a decision read) to 10 s (a large citation check). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Statuses counted in juralite_refusals_total by code: 402 and both kinds of 429 (rate_limited, volume_cap). */
const REFUSALS = new Set([402, 429]);

/** Decisions in a corpus, counted once per corpus and as_of (a count of a large corpus takes milliseconds). */
const decisionCounts = new WeakMap<Database.Database, { asOf: string; count: number }>();

/** Extraction takes from a fraction of a second (a text file) to the pool's time limit (120 s). */
const EXTRACTION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Per source, how many manifest items and the last import; none for a corpus without a manifest (never synced). */
function syncFigures(corpus: Database.Database | null): { source: string; items: number; last: string }[] {
  if (!corpus) return [];
  const table = sql(corpus, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_manifest'").get();
  if (!table) return [];
  return sql(corpus, 'SELECT source, count(*) AS items, max(imported_at) AS last FROM sync_manifest GROUP BY source').all() as
    { source: string; items: number; last: string }[];
}

function corpusFigures(corpus: Database.Database): { decisions: number; asOf: string; bytes: number } {
  const asOf = corpusAsOf(corpus);
  let cached = decisionCounts.get(corpus);
  if (cached?.asOf !== asOf) {
    cached = { asOf, count: (sql(corpus, 'SELECT count(*) AS n FROM decisions').get() as { n: number }).n };
    decisionCounts.set(corpus, cached);
  }
  return { decisions: cached.count, asOf, bytes: statSync(corpus.name).size };
}

/**
 * The metrics of one server. Process and Node metrics (prom-client's defaults: CPU, memory, event-loop lag, ...)
 * are included under their usual names.
 *
 * @example const metrics = createMetrics(services); metrics.observeCall({ operation: 'search', transport: 'rest', ... });
 */
export function createMetrics(services: Services): Metrics {
  const registers = [new Registry()];
  const [registry] = registers;
  collectDefaultMetrics({ register: registry });
  new Gauge({ name: 'juralite_build_info', help: 'The release serving (always 1)', labelNames: ['release'], registers })
    .set({ release: services.config.release }, 1);
  const calls = new Counter({
    name: 'juralite_requests_total', help: 'Operation calls by operation, transport (rest, mcp) and HTTP status',
    labelNames: ['operation', 'transport', 'status'], registers,
  });
  const latency = new Histogram({
    name: 'juralite_request_duration_seconds', help: 'Time from request to answer of an operation call',
    labelNames: ['operation', 'transport'], buckets: LATENCY_BUCKETS, registers,
  });
  const credits = new Counter({
    name: 'juralite_credits_charged_total', help: 'Credits charged, by operation and transport',
    labelNames: ['operation', 'transport'], registers,
  });
  const refusals = new Counter({
    name: 'juralite_refusals_total', help: '402 and 429 answers by problem code (insufficient_credits, rate_limited, volume_cap)',
    labelNames: ['operation', 'transport', 'code'], registers,
  });
  new Gauge({
    name: 'juralite_extraction_queue_length', help: 'Uploads waiting for or in text extraction', registers,
    async collect() { this.set((await waitingUploads(services)).count); },
  });
  new Gauge({
    name: 'juralite_extraction_oldest_wait_seconds', help: 'Age of the oldest upload waiting for extraction (0: none waits)', registers,
    async collect() { this.set((await waitingUploads(services)).oldestSeconds); },
  });
  const corpusGauge = (name: string, help: string, figure: (figures: ReturnType<typeof corpusFigures>) => number) =>
    new Gauge({ name, help, registers, collect() { this.set(services.corpus ? figure(corpusFigures(services.corpus)) : 0); } });
  corpusGauge('juralite_corpus_decisions', 'Decisions in the open corpus (0: no corpus open)', (figures) => figures.decisions);
  corpusGauge('juralite_corpus_size_bytes', 'Size of the corpus file', (figures) => figures.bytes);
  corpusGauge('juralite_corpus_as_of_timestamp_seconds', 'When the corpus was last imported (as_of), Unix time',
    (figures) => Date.parse(figures.asOf) / 1000);
  const extraction = new Histogram({
    name: 'juralite_extraction_duration_seconds', help: 'Time an upload\'s text extraction took, by outcome (ready, failed) and format',
    labelNames: ['status', 'format'], buckets: EXTRACTION_BUCKETS, registers,
  });
  const stopListening = onExtractionEnded(({ seconds, status, format }) => extraction.observe({ status, format }, seconds));
  // What `juralite sync` brought into the open corpus, per source, from its manifest (sync runs in its own process).
  new Gauge({
    name: 'juralite_sync_items', help: 'Items of the official sources recorded in the corpus\'s sync manifest, by source',
    labelNames: ['source'], registers,
    collect() { this.reset(); for (const row of syncFigures(services.corpus)) this.set({ source: row.source }, row.items); },
  });
  new Gauge({
    name: 'juralite_sync_last_import_timestamp_seconds', help: 'When sync last imported an item of the source, Unix time',
    labelNames: ['source'], registers,
    collect() { this.reset(); for (const row of syncFigures(services.corpus)) this.set({ source: row.source }, Date.parse(row.last) / 1000); },
  });
  // The series of one operation and transport, looked up once (prom-client hashes the labels on every call).
  const series = new Map<string, { latency: ReturnType<typeof latency.labels>; credits: ReturnType<typeof credits.labels>;
    calls: Map<number, ReturnType<typeof calls.labels>> }>();
  const seriesOf = (operation: string, transport: string) => {
    const key = `${operation} ${transport}`;
    let found = series.get(key);
    if (!found) {
      found = { latency: latency.labels(operation, transport), credits: credits.labels(operation, transport), calls: new Map() };
      series.set(key, found);
    }
    return found;
  };
  return {
    observeCall({ operation, transport, status, seconds, cost, code }) {
      const one = seriesOf(operation, transport);
      let counted = one.calls.get(status);
      if (!counted) one.calls.set(status, (counted = calls.labels(operation, transport, String(status))));
      counted.inc();
      one.latency.observe(seconds);
      if (cost > 0) one.credits.inc(cost);
      if (code && REFUSALS.has(status)) refusals.inc({ operation, transport, code });
    },
    async scrape() {
      return { text: await registry.metrics(), contentType: registry.contentType };
    },
    close: stopListening,
  };
}

/** The uploads waiting for extraction, from the state of either engine. */
async function waitingUploads(services: Services): Promise<{ count: number; oldestSeconds: number }> {
  const waiting = await services.store.waitingUploads();
  const oldest = waiting.reduce((min, row) => Math.min(min, Date.parse(row.created_at)), Infinity);
  const oldestSeconds = waiting.length ? Math.max(0, (services.clock().getTime() - oldest) / 1000) : 0;
  return { count: waiting.length, oldestSeconds };
}
