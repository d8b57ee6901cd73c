import { rm } from 'node:fs/promises';
import { ServerResponse } from 'node:http';
import { H3, getRouterParams, type H3Event } from 'h3';
import { API_BASE } from '../config.ts';
import { ApiError, invalidArgument } from '../errors.ts';
import { OPERATIONS } from '../operations/index.ts';
import type { Operation, Services } from '../operations/operation.ts';
import type { Caller } from '../accounts/tokens.ts';
import { execute } from '../operations/execute.ts';
import { jsonBodyArguments, queryArguments } from './arguments.ts';
import { htmlResponse, jsonResponse, problemResponse, writeAnswer } from './responses.ts';
import { changelogPage, errorsPage } from './docs-pages.ts';
import { openApiDocument } from './openapi.ts';
import { mcpHttpHandler, MCP_PATH } from '../mcp/http.ts';
import { uploadsOf } from '../uploads/service.ts';
import type { ReceivedFile } from '../uploads/receive.ts';
import { mountPages } from '../web/pages.ts';
import { observeCall, quietObservability, type Observability } from '../observability/observability.ts';
import { accessMiddleware, healthzAnswer, metricsAnswer, readyzAnswer, recordOf } from './observed.ts';

/** `/decisions/{id}` → `/decisions/:id` (the router's syntax). */
const routePath = (path: string) => API_BASE + path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Path, query and body arguments merged into one object, as an MCP tool receives them. Path wins over body. A
 * multipart body is streamed to disk; `received` learns of the stored file, so that a later refusal can delete it.
 */
async function collectArguments(operation: Operation, event: H3Event, services: Services,
  received: (file: ReceivedFile) => void): Promise<Record<string, unknown>> {
  const path = decodePathParameters(getRouterParams(event));
  const query = queryArguments(operation, event.url);
  if (operation.method === 'GET') return { ...query, ...path };
  if (operation.files) {
    // The one file argument (operation.files lists it) arrives as the stored file; see src/uploads/receive.ts.
    const file = await uploadsOf(services).receive(event.req);
    received(file);
    return { [operation.files[0]]: file, ...path };
  }
  return { ...(await jsonBodyArguments(event.req)), ...path };
}

/** Path parameters fully decoded: an Aktenzeichen arrives as `VI%20ZR%20496%2F18`. */
function decodePathParameters(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => {
    try {
      return [name, decodeURIComponent(value)];
    } catch {
      throw invalidArgument(name, 'is not a valid percent-encoded path segment');
    }
  }));
}

function operationHandler(operation: Operation, services: Services, observability: Observability) {
  const headers: Record<string, string> = operation.deprecation
    ? { deprecation: operation.deprecation.deprecation, sunset: operation.deprecation.sunset }
    : {};
  return async (event: H3Event) => {
    const started = performance.now();
    const record = recordOf(event);
    let stored: ReceivedFile | undefined;
    let read: Record<string, unknown> | undefined;
    const observe = (status: number, cost: number, code?: string) => observeCall(observability, record, {
      operation: operation.name, transport: 'rest', status, cost, code, seconds: (performance.now() - started) / 1000,
    }, read);
    try {
      const authorization = event.req.headers.get('authorization');
      // Arguments are read only after authentication, so an anonymous caller cannot make the server read a body.
      const args = async () => (read = await collectArguments(operation, event, services, (file) => { stored = file; }));
      const onCaller = (caller: Caller) => { if (record) record.organization = caller.organization.id; };
      const answer = await execute(operation, { authorization, args, onCaller }, services);
      observe(answer.status, answer.body.credits.cost);
      // On the server, the answer goes straight to Node's response (its id and status for the access log's line);
      // app.fetch (no socket) gets a Response.
      const res = event.runtime?.node?.res;
      if (!(res instanceof ServerResponse) || !record) return jsonResponse(services.config, answer.status, answer.body, headers);
      record.status = answer.status;
      return writeAnswer(res, services.config, answer, { ...headers, 'x-request-id': record.id });
    } catch (error) {
      // A stored upload that was then refused (quota, say) is never recorded: its file goes too.
      if (stored) await rm(stored.path, { force: true });
      const response = problemResponse(error, services.config, headers);
      observe(response.status, 0, error instanceof ApiError ? error.code : 'backend_unavailable');
      return response;
    }
  };
}

/** Which methods the operations serve at a concrete path (for 405 and its Allow header). */
function methodsAt(operations: readonly Operation[], pathname: string): string[] {
  // /decisions/search is also the shape of /decisions/{id}: a method is named once.
  return [...new Set(operations.filter((operation) => {
    const pattern = new RegExp(`^${routePath(operation.path).replace(/:\w+/g, '[^/]+')}$`);
    return pattern.test(pathname);
  }).map((operation) => operation.method))];
}

/**
 * The HTTP edge: one route per operation under /api/v1, generated from the registry, plus the OpenAPI document.
 * Every answer, success or problem, carries X-Service-Api-Release; unknown routes and wrong methods are problems too.
 *
 * @example const app = createApp(services); createServer(toNodeHandler(app)).listen(8080);
 */
export function createApp(services: Services, operations: readonly Operation[] = OPERATIONS,
  observability: Observability = quietObservability()): H3 {
  const { config } = services;
  const app = new H3({
    // A malformed percent-encoding in the path ('/decisions/%ZZ') reaches the route: authentication first, then a 422
    // naming the path parameter (decodePathParameters), as for any other bad argument.
    allowMalformedURL: true,
    // Errors raised by h3 itself become problems as well.
    onError: (error) => problemResponse(error.status === 400
      ? new ApiError('validation_failed', 'The request could not be read.', { errors: { request: [error.message] } })
      : error.cause ?? error, config),
  });
  // 0. Every request gets an id (X-Request-Id) and one access log line.
  app.use(accessMiddleware(observability));
  // 1. The OpenAPI document and the pages the answers link to (problem types, the changelog): public, free, so HEAD
  // answers as GET does, without the body (Node drops it).
  const openapi = openApiDocument(operations, config);
  const errors = errorsPage(config);
  const changelog = changelogPage(config);
  const pages: [string, () => Response | Promise<Response>][] = [
    [`${API_BASE}/openapi.json`, () => jsonResponse(config, 200, openapi)],
    ['/docs/api/errors', () => htmlResponse(config, errors)],
    ['/docs/changelog', () => htmlResponse(config, changelog)],
    // For load balancers, supervisors and Prometheus: unauthenticated and free (src/http/observed.ts).
    ['/healthz', healthzAnswer(services)],
    ['/readyz', readyzAnswer(services)],
    ...(observability.metricsAt === 'api' ? [['/metrics', metricsAnswer(observability)] as [string, () => Promise<Response>]] : []),
  ];
  for (const [path, answer] of pages) {
    app.get(path, answer);
    app.on('HEAD', path, answer);
  }
  // 1b. The pages for people at / and their assets (src/web/, docs/web.md): they call only the API below.
  mountPages(app, config);
  // 2. MCP over Streamable HTTP: the same operations as tools, the same bearer tokens.
  const mcp = mcpHttpHandler(services, operations, observability);
  app.all(MCP_PATH, (event) => mcp(event.req, recordOf(event)));
  // 3. One route per operation.
  for (const operation of operations) app.on(operation.method, routePath(operation.path), operationHandler(operation, services, observability));
  // 4. Everything else: 405 where the path exists with another method, 404 otherwise.
  app.all('/**', (event) => {
    const allowed = pages.some(([path]) => path === event.url.pathname)
      ? ['GET', 'HEAD']
      : methodsAt(operations, event.url.pathname);
    if (allowed.length) {
      return problemResponse(new ApiError('method_not_allowed',
        `${event.req.method} is not allowed here; use ${allowed.join(', ')}.`), config, { allow: allowed.join(', ') });
    }
    return problemResponse(new ApiError('not_found', `No route ${event.url.pathname}; ${notFoundHint(event.url.pathname)}.`), config);
  });
  return app;
}

/** What a path that names no route probably meant. */
function notFoundHint(pathname: string): string {
  if (pathname.startsWith(`${API_BASE}/decisions/`)) {
    return 'a decision named by Aktenzeichen needs its slash encoded as %2F (VIII%20ZR%20123%2F19)';
  }
  if (pathname.replace(/\/$/u, '') === API_BASE) return `the operations are listed in ${API_BASE}/openapi.json`;
  return `the API lives under ${API_BASE}`;
}
