// The HTTP side of the access log and the metrics: a middleware giving each request its id and record and writing
// its log line, and the routes /healthz, /readyz and /metrics (docs/operations.md).
import type { H3Event, Middleware } from 'h3';
import { FastResponse } from 'srvx';
import { logRequest, requestIdOf, type RequestRecord } from '../observability/access-log.ts';
import { readiness } from '../observability/health.ts';
import type { Observability } from '../observability/observability.ts';
import type { Services } from '../operations/operation.ts';
import { jsonResponse, WRITTEN } from './responses.ts';

/** The record of the request being served (set by the access middleware). */
export const recordOf = (event: H3Event): RequestRecord | undefined => event.context.request as RequestRecord | undefined;

/**
 * Gives every request an id (answered as X-Request-Id) and a record the handlers fill, and logs it when answered.
 * Only the path is logged, never the query string (it carries search queries).
 */
export function accessMiddleware(observability: Observability): Middleware {
  return async (event, next) => {
    const started = performance.now();
    const record: RequestRecord = { id: requestIdOf(event.req.headers.get('x-request-id')), cost: 0 };
    event.context.request = record;
    const response = await next();
    // An operation's answer was written to the socket by its handler, with the id (src/http/app.ts).
    const written = response === WRITTEN;
    if (!written && !(response instanceof Response)) return response;
    if (!written) response.headers.set('x-request-id', record.id);
    logRequest(observability.log, record, { method: event.req.method, path: event.url.pathname, ip: event.req.ip },
      written ? record.status! : response.status, performance.now() - started);
    return response;
  };
}

const NO_STORE = { 'cache-control': 'no-store' };

/** GET /healthz: the process is up and serving HTTP. */
export const healthzAnswer = (services: Services) => () => jsonResponse(services.config, 200, { status: 'ok' }, NO_STORE);

/** GET /readyz: 200 when the service can answer calls, else 503 naming what is not ready. */
export const readyzAnswer = (services: Services) => async () => {
  const { ready, checks } = await readiness(services);
  return jsonResponse(services.config, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks }, NO_STORE);
};

/** GET /metrics: the Prometheus exposition text. */
export const metricsAnswer = (observability: Observability) => async () => {
  const { text, contentType } = await observability.metrics!.scrape();
  return new FastResponse(text, { status: 200, headers: { 'content-type': contentType, ...NO_STORE } });
};
