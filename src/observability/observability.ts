// What the HTTP edge and the MCP tools report to: the access log and, where turned on, the metrics. Configured by
// `juralite serve --metrics` and JURALITE_METRICS, JURALITE_LOG_LEVEL, JURALITE_LOG_FORMAT, JURALITE_LOG_QUERIES
// (docs/operations.md).
import type { Level, Logger } from 'pino';
import type { Services } from '../operations/operation.ts';
import { createAccessLog, LOG_LEVELS, silentLog, type LogFormat, type RequestRecord } from './access-log.ts';
import { createMetrics, type CallOutcome, type Metrics } from './metrics.ts';

/** Where /metrics is served: nowhere, on the API's own listener, or on a listener of its own. */
export type MetricsPlace = 'off' | 'api' | { host: string; port: number };

export interface Observability {
  log: Logger;
  /** Operation arguments (search queries, checked texts) in the log: off unless the operator turns it on. */
  logQueries: boolean;
  metrics: Metrics | null;
  metricsAt: MetricsPlace;
}

/** Nothing logged, no metrics: servers started by tests and tools. */
export const quietObservability = (): Observability => ({ log: silentLog(), logQueries: false, metrics: null, metricsAt: 'off' });

export interface ObservabilitySettings {
  level: Level | 'silent';
  format: LogFormat;
  logQueries: boolean;
  metricsAt: MetricsPlace;
}

/**
 * The settings from the environment and the --metrics flag (which wins over JURALITE_METRICS). Metrics are off unless
 * asked for: `on` serves them at /metrics beside the API, `PORT` or `HOST:PORT` on a listener of their own (a bare
 * port on 127.0.0.1). A wrong value is an error naming the setting.
 *
 * @example observabilitySettings({ JURALITE_LOG_LEVEL: 'debug' }, '9464')
 */
export function observabilitySettings(env: NodeJS.ProcessEnv, metricsFlag?: string, terminal = process.stdout.isTTY === true): ObservabilitySettings {
  const level = (env.JURALITE_LOG_LEVEL?.trim() || 'info') as Level | 'silent';
  if (!LOG_LEVELS.includes(level)) throw new Error(`JURALITE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`);
  const format = env.JURALITE_LOG_FORMAT?.trim() || (terminal ? 'pretty' : 'json');
  if (format !== 'json' && format !== 'pretty') throw new Error(`JURALITE_LOG_FORMAT must be json or pretty (got "${format}")`);
  const queries = env.JURALITE_LOG_QUERIES?.trim() || '0';
  if (!['0', '1', 'false', 'true'].includes(queries)) throw new Error(`JURALITE_LOG_QUERIES must be 1 or 0 (got "${queries}")`);
  const metrics = metricsFlag ?? env.JURALITE_METRICS;
  return { level, format, logQueries: queries === '1' || queries === 'true', metricsAt: metricsPlace(metrics) };
}

function metricsPlace(value: string | undefined): MetricsPlace {
  const text = value?.trim() || 'off';
  if (text === 'off' || text === 'on') return text === 'on' ? 'api' : 'off';
  const match = /^(?:(.+):)?(\d{1,5})$/u.exec(text);
  const port = Number(match?.[2]);
  // Port 0: any free port (the address is printed at start).
  if (!match || port > 65535) {
    throw new Error(`--metrics (JURALITE_METRICS) must be off, on, PORT or HOST:PORT (got "${text}")`);
  }
  return { host: match[1]?.replace(/^\[(.*)\]$/u, '$1') ?? '127.0.0.1', port };
}

/** The access log and metrics of a server with these settings. */
export function createObservability(services: Services, settings: ObservabilitySettings): Observability {
  return {
    log: createAccessLog({ level: settings.level, format: settings.format }),
    logQueries: settings.logQueries,
    metrics: settings.metricsAt === 'off' ? null : createMetrics(services),
    metricsAt: settings.metricsAt,
  };
}

/**
 * Records one finished operation call: in its request's log line (`record`, absent over stdio) and in the metrics.
 * `args` reach the log only with query logging on.
 */
export function observeCall(observability: Observability, record: RequestRecord | undefined, call: CallOutcome, args?: unknown): void {
  observability.metrics?.observeCall(call);
  if (!record) return;
  record.transport = call.transport;
  record.operation = record.operation ? `${record.operation},${call.operation}` : call.operation;
  record.cost += call.cost;
  if (call.code) record.code = call.code;
  if (observability.logQueries && args !== undefined) record.args = args;
}
